import { ApiError, apiError, CSRF_HEADERS, type FileView } from '../api.js';

export interface Progress {
  sent: number;
  total: number;
}

export interface RunningUpload {
  done: Promise<FileView>;
  cancel(): void;
}

function errorOf(xhr: XMLHttpRequest): ApiError {
  try {
    return apiError(xhr.status, JSON.parse(xhr.responseText) as Parameters<typeof apiError>[1]);
  } catch {
    return new ApiError(xhr.status, 'failed', `The upload failed (${xhr.status}).`);
  }
}

/**
 * Sends one file to POST /api/file as multipart, streamed by the browser, reporting progress. This is the one
 * function the upload queue calls, so moving to resumable tus uploads changes this file only.
 */
export function startUpload(file: File, folderId: string | null, onProgress: (p: Progress) => void): RunningUpload {
  const xhr = new XMLHttpRequest();
  const done = new Promise<FileView>((resolve, reject) => {
    xhr.open('POST', '/api/file');
    for (const [name, value] of Object.entries(CSRF_HEADERS)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => onProgress({ sent: e.loaded, total: e.lengthComputable ? e.total : file.size });
    xhr.onload = () => (xhr.status === 201 ? resolve(JSON.parse(xhr.responseText) as FileView) : reject(errorOf(xhr)));
    xhr.onerror = () => reject(new ApiError(0, 'offline', 'The connection was lost during the upload.'));
    xhr.onabort = () => reject(new ApiError(0, 'cancelled', 'Cancelled'));
    const form = new FormData();
    if (folderId !== null) form.append('folderId', folderId);
    form.append('file', file, file.name);
    xhr.send(form);
  });
  return { done, cancel: () => xhr.abort() };
}
