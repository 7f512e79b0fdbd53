import { ListActivity } from './activity/list-activity.js';
import { CreateWebhook } from './activity/create-webhook.js';
import { DeleteWebhook } from './activity/delete-webhook.js';
import { GetWebhook } from './activity/get-webhook.js';
import { ListDeliveries } from './activity/list-deliveries.js';
import { ListWebhooks } from './activity/list-webhooks.js';
import { TestWebhook } from './activity/test-webhook.js';
import { UpdateWebhook } from './activity/update-webhook.js';
import { GetEmail } from './activity/get-email.js';
import { NotifyOf } from './activity/notify-of.js';
import { SetEmail } from './activity/set-email.js';
import { SetNotify } from './activity/set-notify.js';
import type { Core } from './contract.js';
import type { Ports } from './ports/index.js';
import { Login } from './auth/login.js';
import { Logout } from './auth/logout.js';
import { Authenticate } from './auth/authenticate.js';
import { SignInBasic } from './auth/sign-in-basic.js';
import { FindChild } from './folders/find-child.js';
import { CopyProperties } from './properties/copy-properties.js';
import { DropProperties } from './properties/drop-properties.js';
import { GetProperties } from './properties/get-properties.js';
import { PatchProperties } from './properties/patch-properties.js';
import { DropLocks } from './locks/drop-locks.js';
import { ListLocks } from './locks/list-locks.js';
import { RefreshLock } from './locks/refresh-lock.js';
import { ReleaseLock } from './locks/release-lock.js';
import { TakeLock } from './locks/take-lock.js';
import { ReplaceFileContent } from './files/replace-file-content.js';
import { GetMe } from './auth/get-me.js';
import { Register } from './auth/register.js';
import { EnsureAdmin } from './auth/ensure-admin.js';
import { ChangePassword } from './auth/change-password.js';
import { ConfirmTotp } from './auth/mfa/confirm-totp.js';
import { LoginMfa } from './auth/mfa/login-mfa.js';
import { NewRecoveryCodes } from './auth/mfa/new-recovery-codes.js';
import { ResetUserMfa } from './auth/mfa/reset-user-mfa.js';
import { StartTotp } from './auth/mfa/start-totp.js';
import { TurnOffTotp } from './auth/mfa/turn-off-totp.js';
import { AddPasskey } from './auth/passkeys/add-passkey.js';
import { ListPasskeys } from './auth/passkeys/list-passkeys.js';
import { LoginPasskey } from './auth/passkeys/login-passkey.js';
import { MfaPasskeyOptions } from './auth/passkeys/mfa-passkey-options.js';
import { PasskeyLoginOptions } from './auth/passkeys/passkey-login-options.js';
import { PasskeyRegistrationOptions } from './auth/passkeys/passkey-registration-options.js';
import { RemovePasskey } from './auth/passkeys/remove-passkey.js';
import { RenamePasskey } from './auth/passkeys/rename-passkey.js';
import { FinishSso } from './auth/sso/finish-sso.js';
import { GetProviders } from './auth/sso/get-providers.js';
import { StartSso } from './auth/sso/start-sso.js';
import { UnlinkSso } from './auth/sso/unlink-sso.js';
import { CreateApiToken } from './tokens/create-api-token.js';
import { ListApiTokens } from './tokens/list-api-tokens.js';
import { DeleteApiToken } from './tokens/delete-api-token.js';
import { UploadFile } from './files/upload-file.js';
import { GetFile } from './files/get-file.js';
import { OpenFileContent } from './files/open-file-content.js';
import { UpdateFile } from './files/update-file.js';
import { DeleteFile } from './files/delete-file.js';
import { CreateFolder } from './folders/create-folder.js';
import { GetFolder } from './folders/get-folder.js';
import { ListRoot } from './folders/list-root.js';
import { UpdateFolder } from './folders/update-folder.js';
import { DeleteFolder } from './folders/delete-folder.js';
import { CreateCollection } from './collections/create-collection.js';
import { ListCollections } from './collections/list-collections.js';
import { GetCollection } from './collections/get-collection.js';
import { UpdateCollection } from './collections/update-collection.js';
import { DeleteCollection } from './collections/delete-collection.js';
import { AddToCollection } from './collections/add-to-collection.js';
import { RemoveFromCollection } from './collections/remove-from-collection.js';
import { CreatePaste } from './pastes/create-paste.js';
import { ListPastes } from './pastes/list-pastes.js';
import { GetPaste } from './pastes/get-paste.js';
import { UpdatePaste } from './pastes/update-paste.js';
import { DeletePaste } from './pastes/delete-paste.js';
import { CreateShare } from './shares/create-share.js';
import { ListShares } from './shares/list-shares.js';
import { GetShare } from './shares/get-share.js';
import { UpdateShare } from './shares/update-share.js';
import { DeleteShare } from './shares/delete-share.js';
import { OpenShareContent } from './shares/open-share-content.js';
import { OpenShareArchive } from './shares/open-share-archive.js';
import { UnlockShare } from './shares/unlock-share.js';
import { Search } from './search/search.js';
import { GetUsage } from './usage/get-usage.js';
import { ListUsers } from './admin/list-users.js';
import { GetUser } from './admin/get-user.js';
import { CreateUser } from './admin/create-user.js';
import { UpdateUser } from './admin/update-user.js';
import { DeleteUser } from './admin/delete-user.js';
import { ReconcileUsage } from './admin/reconcile-usage.js';
import { SweepOrphanBlobs } from './maintenance/sweep-orphan-blobs.js';
import { SweepStaleHolds } from './maintenance/sweep-stale-holds.js';
import { SweepDeadInstances } from './maintenance/sweep-dead-instances.js';
import { SweepExpiredUploads } from './maintenance/sweep-expired-uploads.js';
import { CreateUpload } from './uploads/create-upload.js';
import { AppendUpload } from './uploads/append-upload.js';
import { GetUpload } from './uploads/get-upload.js';
import { TerminateUpload } from './uploads/terminate-upload.js';
import { CreateRequest } from './requests/create-request.js';
import { ListRequests } from './requests/list-requests.js';
import { GetRequest } from './requests/get-request.js';
import { UpdateRequest } from './requests/update-request.js';
import { DeleteRequest } from './requests/delete-request.js';
import { GetPublicRequest } from './requests/get-public-request.js';
import { UnlockRequest } from './requests/unlock-request.js';
import { ReceiveFile } from './requests/receive-file.js';
import { CreateRequestUpload } from './requests/create-request-upload.js';

/** Builds every use case on the given ports. The composition root and embedding hosts both come through here. */
export function createCore(p: Ports): Core {
  return {
    login: new Login(p),
    logout: new Logout(p),
    authenticate: new Authenticate(p),
    signInBasic: new SignInBasic(p, new Authenticate(p)),
    getMe: new GetMe(p),
    register: new Register(p),
    ensureAdmin: new EnsureAdmin(p),
    changePassword: new ChangePassword(p),
    loginMfa: new LoginMfa(p),
    startTotp: new StartTotp(p),
    confirmTotp: new ConfirmTotp(p),
    turnOffTotp: new TurnOffTotp(p),
    newRecoveryCodes: new NewRecoveryCodes(p),
    mfaPasskeyOptions: new MfaPasskeyOptions(p),
    passkeyLoginOptions: new PasskeyLoginOptions(p),
    loginPasskey: new LoginPasskey(p),
    passkeyRegistrationOptions: new PasskeyRegistrationOptions(p),
    addPasskey: new AddPasskey(p),
    listPasskeys: new ListPasskeys(p),
    renamePasskey: new RenamePasskey(p),
    removePasskey: new RemovePasskey(p),
    resetUserMfa: new ResetUserMfa(p),
    getProviders: new GetProviders(p),
    startSso: new StartSso(p),
    finishSso: new FinishSso(p),
    unlinkSso: new UnlinkSso(p),
    createApiToken: new CreateApiToken(p),
    listApiTokens: new ListApiTokens(p),
    deleteApiToken: new DeleteApiToken(p),
    uploadFile: new UploadFile(p),
    createUpload: new CreateUpload(p),
    appendUpload: new AppendUpload(p),
    getUpload: new GetUpload(p),
    terminateUpload: new TerminateUpload(p),
    replaceFileContent: new ReplaceFileContent(p),
    getFile: new GetFile(p),
    openFileContent: new OpenFileContent(p),
    updateFile: new UpdateFile(p),
    deleteFile: new DeleteFile(p),
    createFolder: new CreateFolder(p),
    getFolder: new GetFolder(p),
    listRoot: new ListRoot(p),
    findChild: new FindChild(p),
    updateFolder: new UpdateFolder(p),
    deleteFolder: new DeleteFolder(p),
    createCollection: new CreateCollection(p),
    listCollections: new ListCollections(p),
    getCollection: new GetCollection(p),
    updateCollection: new UpdateCollection(p),
    deleteCollection: new DeleteCollection(p),
    addToCollection: new AddToCollection(p),
    removeFromCollection: new RemoveFromCollection(p),
    createPaste: new CreatePaste(p),
    listPastes: new ListPastes(p),
    getPaste: new GetPaste(p),
    updatePaste: new UpdatePaste(p),
    deletePaste: new DeletePaste(p),
    createShare: new CreateShare(p),
    listShares: new ListShares(p),
    getShare: new GetShare(p),
    updateShare: new UpdateShare(p),
    deleteShare: new DeleteShare(p),
    unlockShare: new UnlockShare(p),
    openShareContent: new OpenShareContent(p),
    openShareArchive: new OpenShareArchive(p),
    createRequest: new CreateRequest(p),
    listRequests: new ListRequests(p),
    getRequest: new GetRequest(p),
    updateRequest: new UpdateRequest(p),
    deleteRequest: new DeleteRequest(p),
    getPublicRequest: new GetPublicRequest(p),
    unlockRequest: new UnlockRequest(p),
    receiveFile: new ReceiveFile(p),
    createRequestUpload: new CreateRequestUpload(p),
    getProperties: new GetProperties(p),
    patchProperties: new PatchProperties(p),
    copyProperties: new CopyProperties(p),
    dropProperties: new DropProperties(p),
    takeLock: new TakeLock(p),
    refreshLock: new RefreshLock(p),
    releaseLock: new ReleaseLock(p),
    listLocks: new ListLocks(p),
    dropLocks: new DropLocks(p),
    search: new Search(p),
    getUsage: new GetUsage(p),
    listUsers: new ListUsers(p),
    getUser: new GetUser(p),
    createUser: new CreateUser(p),
    updateUser: new UpdateUser(p),
    deleteUser: new DeleteUser(p),
    reconcileUsage: new ReconcileUsage(p),
    sweepOrphanBlobs: new SweepOrphanBlobs(p),
    sweepStaleHolds: new SweepStaleHolds(p),
    sweepDeadInstances: new SweepDeadInstances(p),
    sweepExpiredUploads: new SweepExpiredUploads(p),
    listActivity: new ListActivity(p),
    createWebhook: new CreateWebhook(p),
    listWebhooks: new ListWebhooks(p),
    getWebhook: new GetWebhook(p),
    updateWebhook: new UpdateWebhook(p),
    deleteWebhook: new DeleteWebhook(p),
    listDeliveries: new ListDeliveries(p),
    testWebhook: new TestWebhook(p),
    setEmail: new SetEmail(p),
    getEmail: new GetEmail(p),
    setNotify: new SetNotify(p),
    notifyOf: new NotifyOf(p),
  };
}
