import { apiErrorFromBody } from './errors';
import { onUnauthorized } from './http';
import { getToken } from './session-state';

function parseBody(xhr: XMLHttpRequest): unknown {
  try {
    return JSON.parse(xhr.responseText) as unknown;
  } catch {
    return null;
  }
}

/**
 * Sends a file as the raw request body. XMLHttpRequest rather than fetch because only it reports
 * upload progress in every browser; `onProgress` receives a fraction from 0 to 1.
 */
export function uploadFile<T>(path: string, file: Blob, contentType: string, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/${path}`);
    xhr.setRequestHeader('Content-Type', contentType);
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = parseBody(xhr);
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(body as T);
        return;
      }
      if (xhr.status === 401) onUnauthorized(path);
      reject(apiErrorFromBody(xhr.status, body));
    };
    xhr.onerror = () => reject(apiErrorFromBody(0, null));
    xhr.send(file);
  });
}
