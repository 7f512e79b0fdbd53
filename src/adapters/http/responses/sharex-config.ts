/**
 * A ShareX custom uploader (.sxcu, the format of ShareX 13 and later) for one uploader token: images, text and files
 * go to `POST /api/file` as one multipart request with `share=true`, so the answer already carries the share page's
 * `url`, which ShareX copies; on failure ShareX shows Coffer's own error message. Flameshot helpers and other tools
 * that read .sxcu files understand the same fields.
 */
export interface SharexConfig {
  Version: string;
  Name: string;
  DestinationType: string;
  RequestMethod: 'POST';
  RequestURL: string;
  Headers: Record<string, string>;
  Body: 'MultipartFormData';
  Arguments: Record<string, string>;
  FileFormName: string;
  URL: string;
  ErrorMessage: string;
}

export function sharexConfig(base: string, token: string): SharexConfig {
  return {
    Version: '15.0.0',
    Name: `Coffer (${new URL(base).host})`,
    DestinationType: 'ImageUploader, TextUploader, FileUploader',
    RequestMethod: 'POST',
    RequestURL: `${base}/api/file`,
    Headers: { Authorization: `token ${token}` },
    Body: 'MultipartFormData',
    Arguments: { share: 'true' },
    FileFormName: 'file',
    URL: '{json:url}',
    ErrorMessage: '{json:message}',
  };
}
