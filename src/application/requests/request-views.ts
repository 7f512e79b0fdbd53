import type { FileRequest, RequestState } from '../../domain/index.js';
import { requestState } from '../../domain/index.js';
import { isoTime } from '../iso-time.js';

/** A file request as its owner sees it; the HTTP adapter adds its `url` (it knows the public base). */
export interface RequestView {
  id: string;
  name: string;
  message: string | null;
  folderId: string;
  protected: boolean;
  expiresAt: string | null;
  maxFiles: number | null;
  maxBytes: string | null;
  maxFileBytes: string | null;
  allowedTypes: string[];
  requireName: boolean;
  files: number;
  bytes: string;
  state: RequestState;
  createdAt: string;
}

/** What an uploader learns of a request: what it asks for and what it still takes; nothing of the owner's data. */
export interface PublicRequestView {
  name: string;
  message: string | null;
  ownerName: string;
  protected: boolean;
  requireName: boolean;
  maxFileBytes: string | null;
  allowedTypes: string[];
  /** Null: no maximum. */
  filesLeft: number | null;
  bytesLeft: string | null;
  state: RequestState;
}

/** What a protected request says before it is unlocked. */
export interface LockedRequestView {
  name: string;
  protected: true;
  state: RequestState;
}

const decimal = (n: number | null) => (n === null ? null : String(n));

export function requestView(request: FileRequest, now: Date): RequestView {
  return {
    id: request.id,
    name: request.name,
    message: request.message,
    folderId: request.folderId,
    protected: request.passwordHash !== null,
    expiresAt: request.expiresAt && isoTime(request.expiresAt),
    maxFiles: request.maxFiles,
    maxBytes: decimal(request.maxBytes),
    maxFileBytes: decimal(request.maxFileBytes),
    allowedTypes: [...request.allowedTypes],
    requireName: request.requireName,
    files: request.files,
    bytes: String(request.bytes),
    state: requestState(request, now),
    createdAt: isoTime(request.createdAt),
  };
}

export function publicRequestView(request: FileRequest, now: Date): PublicRequestView {
  return {
    name: request.name,
    message: request.message,
    ownerName: request.ownerName,
    protected: request.passwordHash !== null,
    requireName: request.requireName,
    maxFileBytes: decimal(request.maxFileBytes),
    allowedTypes: [...request.allowedTypes],
    filesLeft: request.maxFiles === null ? null : Math.max(0, request.maxFiles - request.files),
    bytesLeft: request.maxBytes === null ? null : String(Math.max(0, request.maxBytes - request.bytes)),
    state: requestState(request, now),
  };
}

export function lockedRequestView(request: FileRequest, now: Date): LockedRequestView {
  return { name: request.name, protected: true, state: requestState(request, now) };
}
