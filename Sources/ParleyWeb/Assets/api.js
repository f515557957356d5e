// The page's calls to `parley web`: every one a JSON route on the same origin, signed in by the session cookie.

/** An answer other than 2xx, with the server's words. */
export class APIError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function call(method, path, body) {
  const options = { method, headers: {}, credentials: 'same-origin' };
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  if (response.status === 204) return null;
  const text = await response.text();
  const value = text ? JSON.parse(text) : null;
  if (!response.ok) throw new APIError(response.status, (value && value.error) || response.statusText);
  return value;
}

export const api = {
  state: () => call('GET', '/api/state'),
  register: (nickname, number, invite) => call('POST', '/api/register', { nickname, number, invite }),
  settings: (change) => call('POST', '/api/settings', change),
  conversations: (offset, limit) => call('GET', `/api/conversations?offset=${offset}&limit=${limit}`),
  messages: (id, before, limit = 50) =>
    call('GET', `/api/conversations/${id}/messages?limit=${limit}` + (before ? `&before=${before}` : '')),
  markRead: (id) => call('POST', `/api/conversations/${id}/read`),
  mute: (id, until) => call('POST', `/api/conversations/${id}/mute`, { until }),
  pin: (id, pinned) => call('POST', `/api/conversations/${id}/pin`, { pinned }),
  timer: (id, seconds) => call('POST', `/api/conversations/${id}/timer`, { seconds }),
  typing: (id, started) => call('POST', `/api/conversations/${id}/typing`, { started }),
  person: (name) => call('GET', `/api/people/${encodeURIComponent(name)}`),
  send: (draft) => call('POST', '/api/send', draft),
  react: (id, emoji, remove) => call('POST', `/api/messages/${id}/react`, { emoji, remove }),
  edit: (id, body) => call('POST', `/api/messages/${id}/edit`, { body }),
  remove: (id) => call('POST', `/api/messages/${id}/delete`),
  attachments: (id) => call('GET', `/api/messages/${id}/attachments`),
  group: (id) => call('GET', `/api/groups/${id}`),
  makeGroup: (title, members, serverStored) => call('POST', '/api/groups', { title, members, serverStored }),
  groupSettings: (id, settings) => call('POST', `/api/groups/${id}/settings`, settings),
  joinGroup: (link) => call('POST', '/api/groups/join', { link }),
  changeGroup: (id, change) => call('POST', `/api/groups/${id}`, change),
  leaveGroup: (id) => call('POST', `/api/groups/${id}/leave`),
  safetyNumber: (accountId) => call('GET', `/api/safety-number/${encodeURIComponent(accountId)}`),
  trust: (accountId) => call('POST', `/api/trust/${encodeURIComponent(accountId)}`),
  search: (text) => call('GET', `/api/search?q=${encodeURIComponent(text)}`),
  startLink: () => call('POST', '/api/link'),
  devices: () => call('GET', '/api/devices'),
  approveDevice: (code) => call('POST', '/api/devices', { code }),
  removeDevice: (id) => call('POST', `/api/devices/${id}/remove`),
  backup: () => call('GET', '/api/backup'),
  createBackup: (pin) => call('POST', '/api/backup', { pin }),
  deleteBackup: () => call('POST', '/api/backup/delete'),
  restore: (username, pin) => call('POST', '/api/restore', { username, pin }),
  username: () => call('GET', '/api/username'),
  setUsername: (nickname, discriminator) => call('POST', '/api/username', { nickname, discriminator }),
  resetUsernameLink: () => call('POST', '/api/username/link/reset'),
  deleteUsername: () => call('POST', '/api/username/delete'),
  push: () => call('GET', '/api/push'),
  registerPush: (endpoint) => call('POST', '/api/push', { endpoint }),
  removePush: () => call('POST', '/api/push/remove'),
  contentDetection: () => call('GET', '/api/content-detection'),
  checkContent: (upload) => call('POST', '/api/content-detection/check', { upload }),

  /** Uploads `file` (a recorded WAV voice note when `voiceNote`), calling `progress(fraction)` as it goes; resolves to its upload id. */
  upload(file, progress, voiceNote = false) {
    return new Promise((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open('POST', `/api/uploads?name=${encodeURIComponent(file.name)}${voiceNote ? '&voice=1' : ''}`);
      request.upload.onprogress = (event) => { if (event.lengthComputable) progress(event.loaded / event.total); };
      request.onload = () => {
        let value = null;
        try { value = JSON.parse(request.responseText); } catch { value = null; }
        if (request.status === 201 && value) resolve(value.id);
        else reject(new APIError(request.status, (value && value.error) || 'the upload failed'));
      };
      request.onerror = () => reject(new APIError(0, 'the upload failed'));
      request.send(file);
    });
  },

  /** Downloads attachment `id` as a Blob, calling `progress(fraction)` as it goes. */
  async download(id, progress) {
    const response = await fetch(`/api/attachments/${id}`, { credentials: 'same-origin' });
    if (!response.ok) {
      let message = response.statusText;
      try { message = (await response.json()).error || message; } catch { /* not JSON */ }
      throw new APIError(response.status, message);
    }
    const total = Number(response.headers.get('Content-Length')) || 0;
    const reader = response.body.getReader();
    const chunks = [];
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.length;
      if (total) progress(received / total);
    }
    return new Blob(chunks, { type: response.headers.get('Content-Type') || 'application/octet-stream' });
  },
};
