// Parley in the browser. The page is only the screen: every action is one call to the local `parley web` process
// (api.js), which holds the keys and the encrypted database; live updates come as server-sent events.
import { api, APIError } from './api.js';
import { el, byId, when, announce } from './dom.js';
import { VoiceRecorder } from './voice.js';

const PAGE = 100;
const REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🎉'];

const state = {
  me: null,
  conversations: [],
  total: 0,
  current: null, // { id, summary, messages, nextCursor } or { draftTo, summary: null, messages: [] }
  searching: false,
  replyTo: null,
  editing: null,
  staged: [], // [{ id, name }]
  typingTimer: null,
  typingSent: 0,
  refreshTimer: null,
  recorder: null, // a VoiceRecorder while a voice note is being recorded
  recordingClock: null,
};

// MARK: Start

async function start() {
  bindStaticControls();
  await loadState();
}

async function loadState() {
  const me = await api.state();
  state.me = me;
  if (!me.registered) {
    byId('register-server').textContent = me.server || 'the server';
    byId('register').hidden = false;
    byId('shell').hidden = true;
    byId('register-username').focus();
    return;
  }
  byId('register').hidden = true;
  byId('shell').hidden = false;
  byId('me').textContent = `Signed in as ${me.username}`;
  setOnline(me.online !== false);
  await loadInbox();
  afterPaint(() => performance.mark('parley:inbox-shown'));
  listen();
}

/** Runs `work` once the next frame is on the screen. */
function afterPaint(work) {
  requestAnimationFrame(() => setTimeout(work, 0));
}

function bindStaticControls() {
  byId('register-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    byId('register-error').textContent = '';
    try {
      await api.register(
        byId('register-username').value.trim(), byId('register-number').value.trim(), byId('register-invite').value.trim());
      await loadState();
    } catch (error) {
      byId('register-error').textContent = error.message;
    }
  });
  byId('restore-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    byId('restore-error').textContent = '';
    const button = event.submitter;
    if (button) button.disabled = true;
    try {
      await api.restore(byId('restore-username').value.trim(), byId('restore-pin').value);
      byId('restore-pin').value = '';
      await loadState();
      announce('Account restored');
    } catch (error) {
      byId('restore-error').textContent = error.message;
    } finally {
      if (button) button.disabled = false;
    }
  });
  byId('link-start').addEventListener('click', startLink);
  byId('new-chat').addEventListener('click', newChat);
  byId('new-group').addEventListener('click', newGroup);
  byId('join-group').addEventListener('click', joinGroup);
  byId('settings').addEventListener('click', openSettings);
  byId('more').addEventListener('click', () => loadInbox(state.conversations.length));
  byId('older').addEventListener('click', loadOlder);
  byId('back').addEventListener('click', () => {
    byId('shell').classList.remove('show-conversation');
    byId('inbox').focus();
  });
  byId('search-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = byId('search').value.trim();
    if (text) await search(text);
  });
  byId('search-clear').addEventListener('click', () => {
    byId('search').value = '';
    state.searching = false;
    byId('search-clear').hidden = true;
    renderInbox();
  });
  byId('inbox').addEventListener('keydown', inboxKeys);
  byId('composer').addEventListener('submit', (event) => {
    event.preventDefault();
    send();
  });
  byId('text').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      send();
    } else if (event.key === 'Escape') {
      clearContext();
    }
  });
  byId('text').addEventListener('input', typed);
  byId('file').addEventListener('change', (event) => uploadFiles([...event.target.files]));
  byId('record').addEventListener('click', toggleRecording);
  byId('record-cancel').addEventListener('click', cancelRecording);
  byId('record').hidden = !VoiceRecorder.supported();
  byId('context-cancel').addEventListener('click', clearContext);
  byId('timer').addEventListener('change', setTimer);
  byId('mute').addEventListener('click', toggleMute);
  byId('pin').addEventListener('click', togglePin);
  byId('safety').addEventListener('click', () => state.current?.summary && openSafetyNumber(state.current.summary.accountId));
  byId('group-info').addEventListener('click', openGroup);
}

// Linking this machine to an account another device holds: a code to approve there, then wait.
async function startLink() {
  byId('link-error').textContent = '';
  try {
    const { code } = await api.startLink();
    byId('link-code').textContent = code;
    byId('link-qr').src = `/api/link/qr?at=${Date.now()}`;
    byId('link-waiting').hidden = false;
    byId('link-start').textContent = 'Make a new code';
    const poll = async () => {
      const me = await api.state();
      if (me.registered) return loadState();
      if (me.linkFailure) {
        byId('link-waiting').hidden = true;
        byId('link-error').textContent = `The link did not complete: ${me.linkFailure}`;
        return;
      }
      setTimeout(poll, 2000);
    };
    setTimeout(poll, 2000);
  } catch (error) {
    byId('link-error').textContent = error.message;
  }
}

// MARK: Live updates

function listen() {
  const events = new EventSource('/api/events');
  events.addEventListener('message', async (event) => {
    const message = JSON.parse(event.data);
    await loadInbox();
    if (state.current && state.current.id === message.conversationId) {
      await refreshConversation();
      if (!message.outgoing && !document.hidden) {
        await api.markRead(message.conversationId).catch(() => {});
        await loadInbox();
      }
    }
    if (!message.outgoing) {
      announce(`New message from ${message.author}`);
      if (document.hidden && 'Notification' in window && Notification.permission === 'granted') {
        new Notification(`Parley: ${message.author}`, { body: message.preview || 'New message', tag: `c${message.conversationId}` });
      }
    }
  });
  events.addEventListener('changed', async () => {
    await loadInbox();
    if (state.current?.id) await refreshConversation();
  });
  events.addEventListener('typing', (event) => {
    const typing = JSON.parse(event.data);
    const summary = state.current?.summary;
    if (!summary) return;
    const here = typing.groupId ? summary.groupId === typing.groupId : (!summary.groupId && summary.accountId === typing.accountId);
    if (!here) return;
    const line = byId('typing');
    line.textContent = typing.started ? `${typing.username || 'Someone'} is typing…` : '';
    clearTimeout(state.typingTimer);
    if (typing.started) state.typingTimer = setTimeout(() => { line.textContent = ''; }, 8000);
  });
  events.addEventListener('sendFailed', async (event) => {
    const failure = JSON.parse(event.data);
    announce(`A message could not be sent: ${failure.reason}`);
    if (state.current?.id) await refreshConversation();
  });
  events.addEventListener('connection', async (event) => {
    const { up } = JSON.parse(event.data);
    setOnline(up);
    if (up && state.current?.id) setTimeout(refreshConversation, 1000);
  });
}

function setOnline(up) {
  byId('banner').hidden = up;
}

// MARK: Inbox

async function loadInbox(offset = 0) {
  const wanted = Math.max(PAGE, offset === 0 ? state.conversations.length : 0);
  const page = await api.conversations(offset, Math.min(wanted, 500));
  state.conversations = offset === 0 ? page.conversations : state.conversations.concat(page.conversations);
  state.total = page.total;
  if (state.current?.id) {
    const summary = state.conversations.find((c) => c.threadId === state.current.id);
    if (summary) state.current.summary = summary;
  }
  if (!state.searching) renderInbox();
}

function title(summary) {
  return summary.title || summary.username || summary.accountId;
}

function renderInbox() {
  const list = byId('inbox');
  list.replaceChildren(
    ...state.conversations.map((summary) => {
      const selected = state.current?.id === summary.threadId;
      const muted = summary.mutedUntil > Date.now();
      const pinned = summary.pinnedAt > 0;
      const label = `${title(summary)}${pinned ? ', pinned' : ''}${summary.unreadCount ? `, ${summary.unreadCount} unread` : ''}`
        + `${muted ? ', muted' : ''}`;
      return el(
        'li',
        {
          role: 'option', tabindex: selected ? 0 : -1, 'aria-selected': selected ? 'true' : 'false', 'aria-label': label,
          'data-id': summary.threadId, onclick: () => openConversation(summary.threadId),
        },
        el('span', { class: 'name' }, `${pinned ? '📌 ' : ''}${summary.groupId ? '👥 ' : ''}${title(summary)}${muted ? ' 🔕' : ''}`),
        el('span', { class: 'time' }, when(summary.updated)),
        el('span', { class: 'preview' }, summary.lastMessagePreview || ''),
        summary.unreadCount ? el('span', { class: 'unread' }, String(summary.unreadCount)) : el('span'),
      );
    }),
  );
  if (!list.querySelector('[tabindex="0"]') && list.firstElementChild) list.firstElementChild.tabIndex = 0;
  byId('more').hidden = state.conversations.length >= state.total;
}

function inboxKeys(event) {
  const items = [...byId('inbox').querySelectorAll('li')];
  const index = items.indexOf(document.activeElement);
  let next = null;
  if (event.key === 'ArrowDown') next = items[Math.min(items.length - 1, index + 1)];
  else if (event.key === 'ArrowUp') next = items[Math.max(0, index - 1)];
  else if (event.key === 'Home') next = items[0];
  else if (event.key === 'End') next = items[items.length - 1];
  else if ((event.key === 'Enter' || event.key === ' ') && index >= 0) {
    event.preventDefault();
    items[index].click();
    return;
  }
  if (next) {
    event.preventDefault();
    items.forEach((item) => { item.tabIndex = -1; });
    next.tabIndex = 0;
    next.focus();
  }
}

async function search(text) {
  state.searching = true;
  byId('search-clear').hidden = false;
  const list = byId('inbox');
  try {
    const results = await api.search(text);
    list.replaceChildren(
      ...results.map((result) =>
        el(
          'li',
          {
            role: 'option', tabindex: -1, 'aria-selected': 'false', 'aria-label': `${result.title}: ${result.message.body}`,
            onclick: () => openConversation(result.message.threadId, result.message.id),
          },
          el('span', { class: 'name' }, result.title),
          el('span', { class: 'time' }, when(result.message.timestamp)),
          el('span', { class: 'preview' }, result.message.body || ''),
          el('span'),
        ),
      ),
    );
    if (list.firstElementChild) list.firstElementChild.tabIndex = 0;
    announce(`${results.length} messages found`);
    if (!results.length) list.replaceChildren(el('li', { role: 'option', 'aria-selected': 'false' }, 'No messages found'));
  } catch (error) {
    list.replaceChildren(el('li', { role: 'option', 'aria-selected': 'false' }, error.message));
  }
}

// MARK: A conversation

async function openConversation(id, focusMessage) {
  performance.mark('parley:open-conversation');
  const summary = state.conversations.find((c) => c.threadId === id) || null;
  state.current = { id, summary, messages: [], nextCursor: null };
  clearContext();
  byId('typing').textContent = '';
  const page = await api.messages(id);
  state.current.messages = page.messages.slice().reverse();
  state.current.nextCursor = page.nextCursor;
  if (summary?.groupId) {
    api.group(summary.groupId).then((group) => { if (state.current?.id === id) state.current.members = group.members; }).catch(() => {});
  }
  renderHeader();
  renderMessages();
  renderInbox();
  byId('shell').classList.add('show-conversation');
  // What Scripts/bench-web.py measures, to the frame that shows it (the browser's User Timing API, nothing else kept).
  afterPaint(() => performance.measure('parley:conversation-shown', 'parley:open-conversation'));
  if (summary?.unreadCount) {
    await api.markRead(id).catch(() => {});
    await loadInbox();
  }
  if (focusMessage) {
    const node = byId(`m-${focusMessage}`);
    if (node) {
      node.scrollIntoView({ block: 'center' });
      node.focus();
    }
  } else {
    byId('text').focus();
  }
}

function openDraft(name, person) {
  state.current = {
    id: null, draftTo: person.accountId, messages: [], nextCursor: null,
    summary: { threadId: null, accountId: person.accountId, username: person.username || name, groupId: null, expireTimer: 0, mutedUntil: 0 },
  };
  clearContext();
  renderHeader();
  renderMessages();
  byId('shell').classList.add('show-conversation');
  byId('text').focus();
}

async function refreshConversation() {
  const current = state.current;
  if (!current?.id) return;
  const page = await api.messages(current.id);
  if (state.current !== current) return;
  const newest = page.messages.slice().reverse();
  const kept = current.messages.filter((m) => !newest.some((n) => n.id === m.id) && newest.length && m.id < newest[0].id);
  current.messages = kept.concat(newest);
  if (!current.nextCursor && page.nextCursor && !kept.length) current.nextCursor = page.nextCursor;
  renderHeader();
  renderMessages();
}

async function loadOlder() {
  const current = state.current;
  if (!current?.nextCursor) return;
  const page = await api.messages(current.id, current.nextCursor);
  current.messages = page.messages.slice().reverse().concat(current.messages);
  current.nextCursor = page.nextCursor;
  renderMessages(true);
}

function renderHeader() {
  const summary = state.current?.summary;
  byId('conversation-title').textContent = summary ? title(summary) : 'Choose a conversation';
  byId('conversation-tools').hidden = !summary;
  byId('composer').hidden = !state.current;
  if (!summary) return;
  const isGroup = Boolean(summary.groupId);
  byId('safety').hidden = isGroup;
  byId('group-info').hidden = !isGroup;
  byId('timer').hidden = isGroup || !state.current.id;
  byId('mute').hidden = !state.current.id;
  byId('pin').hidden = !state.current.id;
  byId('pin').textContent = summary.pinnedAt > 0 ? 'Unpin' : 'Pin';
  const timer = byId('timer');
  const seconds = String(summary.expireTimer || 0);
  if (![...timer.options].some((o) => o.value === seconds)) timer.append(el('option', { value: seconds }, `Disappear after ${seconds} s`));
  timer.value = seconds;
  byId('mute').textContent = summary.mutedUntil > Date.now() ? 'Unmute' : 'Mute';
}

function renderMessages(keepScroll = false) {
  const list = byId('messages');
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
  const before = list.scrollHeight - list.scrollTop;
  const byIdMap = new Map(state.current.messages.map((m) => [m.id, m]));
  list.replaceChildren(...state.current.messages.map((message) => renderMessage(message, byIdMap)));
  byId('older').hidden = !state.current.nextCursor;
  if (keepScroll) list.scrollTop = list.scrollHeight - before;
  else if (atBottom || !keepScroll) list.scrollTop = list.scrollHeight;
  clearTimeout(state.refreshTimer);
  if (state.current.messages.some((m) => m.status === 'sending')) state.refreshTimer = setTimeout(refreshConversation, 2000);
}

function statusMark(message) {
  switch (message.status) {
    case 'sending': return ['🕓', 'Waiting to send'];
    case 'sent': return ['✓', 'Sent'];
    case 'delivered': return ['✓✓', 'Delivered'];
    case 'read': return ['✓✓ read', 'Read'];
    case 'failed': return ['⚠ not sent', `Not sent: ${message.failureReason || ''}`];
    default: return null;
  }
}

function renderMessage(message, known) {
  if (message.kind !== 'message') {
    return el('li', { class: 'msg notice', id: `m-${message.id}` }, message.body || '');
  }
  const own = message.outgoing;
  const isGroup = Boolean(state.current.summary?.groupId);
  const author = own ? 'You' : message.authorUsername || message.authorAccountId;
  const quoted = message.replyToId ? known.get(message.replyToId) : null;
  const mark = own ? statusMark(message) : null;
  const uploading = own && message.status === 'sending';
  const reactionCounts = new Map();
  for (const reaction of message.reactions || []) reactionCounts.set(reaction.emoji, (reactionCounts.get(reaction.emoji) || 0) + 1);
  const body = message.deleted
    ? el('p', { class: 'body deleted' }, 'This message was deleted.')
    : el('p', { class: 'body' }, ...bodyNodes(message));
  const node = el(
    'li',
    {
      class: `msg ${own ? 'own' : 'theirs'}`, id: `m-${message.id}`, tabindex: 0,
      'aria-label': `${author}, ${when(message.timestamp)}${message.editedAt ? ', edited' : ''}`,
    },
    !own && isGroup ? el('div', { class: 'author' }, author) : null,
    quoted ? el('blockquote', { class: 'quote' }, `${quoted.outgoing ? 'You' : quoted.authorUsername || ''}: ${quoted.body || ''}`) : null,
    body,
    message.attachmentCount && !message.deleted ? attachmentsNode(message, uploading) : null,
    el(
      'div', { class: 'meta' },
      el('time', { datetime: new Date(message.timestamp).toISOString() }, when(message.timestamp)),
      message.editedAt ? el('span', { class: 'edited' }, 'edited') : null,
      message.expiresAt ? el('span', { title: 'Disappears' }, '⏱') : null,
      mark ? el('span', { class: 'status', 'aria-label': mark[1], title: mark[1] }, mark[0]) : null,
    ),
    reactionCounts.size
      ? el('ul', { class: 'reactions', 'aria-label': 'Reactions' },
        [...reactionCounts].map(([emoji, count]) => el('li', { 'aria-label': `${emoji} ${count}` }, `${emoji} ${count}`)))
      : null,
    message.deleted ? null : messageActions(message),
  );
  return node;
}

// Each message's attachments, drawn once and kept across redraws: an image or a player is not fetched again.
const attachmentNodes = new Map();

function attachmentsNode(message, uploading) {
  // An attachment still being sent is not on the server yet: it is shown once it is.
  if (uploading) {
    const count = message.attachmentCount;
    return el('div', { class: 'attachments' }, `Sending ${count} attachment${count > 1 ? 's' : ''}…`);
  }
  let node = attachmentNodes.get(message.id);
  if (!node) {
    node = el('div', { class: 'attachments', 'data-message': message.id });
    attachmentNodes.set(message.id, node);
    renderAttachments(message.id, node);
  }
  return node;
}

function messageActions(message) {
  const actions = el('div', { class: 'actions' });
  actions.append(el('button', { type: 'button', onclick: () => setReply(message) }, 'Reply'));
  actions.append(el('button', { type: 'button', 'aria-haspopup': 'dialog', onclick: () => openReactions(message) }, 'React'));
  if (message.outgoing && message.status !== 'failed') {
    actions.append(el('button', { type: 'button', onclick: () => setEdit(message) }, 'Edit'));
    actions.append(el('button', { type: 'button', class: 'danger', onclick: () => deleteMessage(message) }, 'Delete for everyone'));
  }
  return actions;
}

const attachmentCache = new Map();

async function renderAttachments(messageId, container) {
  let infos = attachmentCache.get(messageId);
  if (!infos) {
    try {
      infos = await api.attachments(messageId);
      attachmentCache.set(messageId, infos);
    } catch {
      return;
    }
  }
  container.replaceChildren(
    ...infos.map((info) => {
      const name = info.fileName || 'attachment';
      const type = info.contentType || '';
      if (/^image\/(png|jpeg|gif|webp)$/.test(type)) {
        return el('img', { class: 'thumb', src: `/api/attachments/${info.id}`, alt: `Image: ${name}`, decoding: 'async' });
      }
      if (type.startsWith('audio/')) {
        const length = info.durationMilliseconds ? ` (${clock(Math.round(info.durationMilliseconds / 1000))})` : '';
        const label = info.voiceNote ? `Voice note${length}` : `Audio: ${name}${length}`;
        return el('div', { class: 'file' },
          info.voiceNote ? el('span', { class: 'voice-label' }, `🎤 ${label}`) : null,
          el('audio', { controls: true, preload: 'none', src: `/api/attachments/${info.id}`, 'aria-label': label }));
      }
      const progress = el('progress', { max: 100, value: 0, hidden: true, 'aria-label': `Download progress of ${name}` });
      const button = el('button', {
        type: 'button', 'data-attachment': info.id,
        onclick: async () => {
          progress.hidden = false;
          try {
            const blob = await api.download(info.id, (fraction) => { progress.value = Math.round(fraction * 100); });
            const link = el('a', { href: URL.createObjectURL(blob), download: name });
            document.body.append(link);
            link.click();
            link.remove();
            announce(`${name} downloaded`);
          } catch (error) {
            announce(`Download failed: ${error.message}`);
          } finally {
            progress.hidden = true;
          }
        },
      }, `Download ${name} (${formatSize(info.size)})`);
      return el('div', { class: 'file' }, button, progress);
    }),
  );
}

/** Seconds as m:ss. */
function clock(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

// MARK: Voice notes

async function toggleRecording() {
  if (state.recorder) return finishRecording();
  const recorder = new VoiceRecorder();
  byId('composer-error').textContent = '';
  try {
    await recorder.start(() => finishRecording());
  } catch (error) {
    recorder.cancel();
    byId('composer-error').textContent = `The microphone cannot be used: ${error.message}`;
    return;
  }
  state.recorder = recorder;
  const button = byId('record');
  button.setAttribute('aria-pressed', 'true');
  button.setAttribute('aria-label', 'Stop and send the voice note');
  byId('record-cancel').hidden = false;
  const tick = () => { button.textContent = `■ ${clock(recorder.elapsed)}`; };
  tick();
  state.recordingClock = setInterval(tick, 500);
  announce('Recording');
}

function endRecording() {
  clearInterval(state.recordingClock);
  const recorder = state.recorder;
  state.recorder = null;
  const button = byId('record');
  button.textContent = '🎤';
  button.setAttribute('aria-pressed', 'false');
  button.setAttribute('aria-label', 'Record a voice note');
  byId('record-cancel').hidden = true;
  return recorder;
}

function cancelRecording() {
  endRecording()?.cancel();
  announce('Recording cancelled');
}

/** Stops recording and sends the note to the open conversation, as it is. */
async function finishRecording() {
  const recorder = endRecording();
  const current = state.current;
  if (!recorder || !current) return;
  const progress = byId('upload-progress');
  try {
    const note = await recorder.stop();
    progress.hidden = false;
    const id = await api.upload(new File([note], 'voice-note.wav', { type: 'audio/wav' }),
      (fraction) => { progress.value = Math.round(fraction * 100); }, true);
    const draft = { body: '', uploads: [id] };
    if (current.id) draft.conversationId = current.id;
    else draft.to = current.draftTo;
    const sent = await api.send(draft);
    if (sent.report.status === 'queued') announce('The server cannot be reached: the voice note waits and goes out when it is back');
    else announce('Voice note sent');
    await loadInbox();
    if (!current.id && sent.conversationId) await openConversation(sent.conversationId);
    else await refreshConversation();
  } catch (error) {
    byId('composer-error').textContent = `The voice note was not sent: ${error.message}`;
  } finally {
    progress.hidden = true;
  }
}

function formatSize(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

// MARK: Composing

function setReply(message) {
  state.editing = null;
  state.replyTo = message;
  showContext(`Replying to ${message.outgoing ? 'yourself' : message.authorUsername || ''}: ${(message.body || '').slice(0, 80)}`);
}

function setEdit(message) {
  state.replyTo = null;
  state.editing = message;
  byId('text').value = message.body || '';
  showContext('Editing your message');
}

function showContext(text) {
  byId('context-text').textContent = text;
  byId('context').hidden = false;
  byId('text').focus();
}

function clearContext() {
  if (state.editing) byId('text').value = '';
  state.replyTo = null;
  state.editing = null;
  byId('context').hidden = true;
  byId('composer-error').textContent = '';
}

async function uploadFiles(files) {
  const progress = byId('upload-progress');
  for (const file of files) {
    progress.hidden = false;
    progress.value = 0;
    try {
      const id = await api.upload(file, (fraction) => { progress.value = Math.round(fraction * 100); });
      state.staged.push({ id, name: file.name });
    } catch (error) {
      byId('composer-error').textContent = `${file.name}: ${error.message}`;
    }
  }
  progress.hidden = true;
  byId('file').value = '';
  renderStaged();
}

function renderStaged() {
  byId('staged').replaceChildren(
    ...state.staged.map((upload, index) =>
      el('li', {}, upload.name, ' ',
        el('button', { type: 'button', 'aria-label': `Remove ${upload.name}`, onclick: () => { state.staged.splice(index, 1); renderStaged(); } }, '✕'))),
  );
}

async function send() {
  const current = state.current;
  if (!current) return;
  const text = byId('text');
  const body = text.value;
  byId('composer-error').textContent = '';
  try {
    if (state.editing) {
      if (!body.trim()) return;
      await api.edit(state.editing.id, body);
      text.value = '';
      clearContext();
      await refreshConversation();
      return;
    }
    if (!body.trim() && !state.staged.length) return;
    const draft = { body, uploads: state.staged.map((s) => s.id) };
    if (current.id) draft.conversationId = current.id;
    else draft.to = current.draftTo;
    if (state.replyTo) draft.replyTo = state.replyTo.id;
    const mentions = findMentions(body, current.members || []);
    if (mentions.length) draft.mentions = mentions;
    text.value = '';
    const staged = state.staged;
    state.staged = [];
    renderStaged();
    clearContext();
    const sent = await api.send(draft).catch((error) => {
      text.value = body;
      state.staged = staged;
      renderStaged();
      throw error;
    });
    stopTyping();
    if (sent.report.status === 'queued') announce('The server cannot be reached: the message waits and goes out when it is back');
    if (!current.id && sent.conversationId) {
      await loadInbox();
      await openConversation(sent.conversationId);
    } else {
      await loadInbox();
      await refreshConversation();
    }
  } catch (error) {
    byId('composer-error').textContent = error.message;
  }
}

/**
 * The mentions in `body`: every `@username` of a member other than this account, as the account and the UTF-16 range
 * of the text that names them (a JavaScript string's indexes are UTF-16 code units, as Signal's ranges are).
 */
function findMentions(body, members) {
  const mentions = [];
  for (const member of members) {
    if (!member.username || member.accountId === state.me.accountId) continue;
    const tag = `@${member.username}`;
    let from = 0;
    for (;;) {
      const start = body.indexOf(tag, from);
      if (start < 0) break;
      const after = body[start + tag.length];
      if (after === undefined || !/[A-Za-z0-9._-]/.test(after)) mentions.push({ accountId: member.accountId, start, length: tag.length });
      from = start + tag.length;
    }
  }
  return mentions.sort((a, b) => a.start - b.start).slice(0, 100);
}

/** A message's text as nodes, its mentions in bold: text only ever becomes text nodes. */
function bodyNodes(message) {
  const text = message.body || '';
  const ranges = (message.mentions || [])
    .filter((m) => m.start >= 0 && m.length > 0 && m.start + m.length <= text.length)
    .sort((a, b) => a.start - b.start);
  const nodes = [];
  let at = 0;
  for (const range of ranges) {
    if (range.start < at) continue;
    nodes.push(text.slice(at, range.start));
    nodes.push(el('strong', { class: 'mention' }, text.slice(range.start, range.start + range.length)));
    at = range.start + range.length;
  }
  nodes.push(text.slice(at));
  return nodes;
}

function typed() {
  const current = state.current;
  if (!current?.id) return;
  const now = Date.now();
  if (now - state.typingSent > 4000) {
    state.typingSent = now;
    api.typing(current.id, true).catch(() => {});
  }
  clearTimeout(state.stopTyping);
  state.stopTyping = setTimeout(stopTyping, 5000);
}

function stopTyping() {
  clearTimeout(state.stopTyping);
  if (state.typingSent && state.current?.id) api.typing(state.current.id, false).catch(() => {});
  state.typingSent = 0;
}

async function deleteMessage(message) {
  const confirmed = await dialog('Delete for everyone?', [el('p', {}, 'Everyone in this conversation sees that you deleted it.')],
    [['Cancel', null], ['Delete', 'delete', 'danger']]);
  if (confirmed !== 'delete') return;
  try {
    await api.remove(message.id);
    await refreshConversation();
  } catch (error) {
    announce(error.message);
  }
}

function openReactions(message) {
  const mine = (message.reactions || []).find((r) => r.authorAccountId === state.me.accountId);
  const buttons = REACTIONS.map((emoji) => [emoji, emoji]);
  if (mine) buttons.push(['Remove my reaction', 'remove']);
  buttons.push(['Cancel', null]);
  dialog('React', [], buttons).then(async (choice) => {
    if (!choice) return;
    try {
      if (choice === 'remove') await api.react(message.id, mine.emoji, true);
      else await api.react(message.id, choice, false);
      await refreshConversation();
    } catch (error) {
      announce(error.message);
    }
  });
}

// MARK: Conversation settings

async function setTimer() {
  const current = state.current;
  if (!current?.id) return;
  try {
    await api.timer(current.id, Number(byId('timer').value));
    await loadInbox();
    await refreshConversation();
  } catch (error) {
    announce(error.message);
  }
}

async function toggleMute() {
  const current = state.current;
  if (!current?.id) return;
  const muted = current.summary.mutedUntil > Date.now();
  await api.mute(current.id, muted ? 0 : Date.now() + 8 * 3600 * 1000);
  await loadInbox();
  renderHeader();
  announce(muted ? 'Unmuted' : 'Muted for 8 hours');
}

async function togglePin() {
  const current = state.current;
  if (!current?.id) return;
  const pinned = current.summary.pinnedAt > 0;
  try {
    await api.pin(current.id, !pinned);
  } catch (error) {
    announce(error.message);
    return;
  }
  await loadInbox();
  renderHeader();
  announce(pinned ? 'Unpinned' : 'Pinned to the top');
}

async function openSafetyNumber(accountId) {
  try {
    const number = await api.safetyNumber(accountId);
    const groups = number.digits.split(' ');
    const rows = [];
    for (let i = 0; i < groups.length; i += 4) rows.push(groups.slice(i, i + 4).join(' '));
    const choice = await dialog(`Safety number with ${number.username || accountId}`, [
      el('p', {}, 'Compare these numbers with the ones on the other person\'s device. If they match, your conversation is end-to-end encrypted with them and no one in between.'),
      el('p', { class: 'digits', id: 'safety-digits' }, ...rows.flatMap((row, i) => (i ? [el('br'), row] : [row]))),
      el('img', {
        class: 'qr', id: 'safety-qr', src: `/api/safety-number/${encodeURIComponent(accountId)}/qr`,
        alt: 'The safety number as a QR code, for the other device\'s camera',
      }),
    ], [['Close', null], ['Mark as verified', 'verify']]);
    if (choice === 'verify') {
      await api.trust(accountId);
      announce('Marked as verified');
    }
  } catch (error) {
    await dialog('Safety number', [el('p', {}, error.message)], [['Close', null]]);
  }
}

// MARK: New conversations and groups

async function newChat() {
  const input = el('input', { id: 'new-chat-name', autocomplete: 'off', required: true });
  const choice = await dialog('New chat', [el('label', { for: 'new-chat-name' }, 'Username'), input], [['Cancel', null], ['Start', 'start']], async () => {
    const name = input.value.trim();
    if (!name) throw new Error('Enter a username');
    return api.person(name).catch((error) => { throw new Error(error.status === 404 ? `No account named ${name}` : error.message); });
  });
  if (!choice || choice === 'start') return;
  const existing = state.conversations.find((c) => !c.groupId && c.accountId === choice.accountId);
  if (existing) await openConversation(existing.threadId);
  else openDraft(input.value.trim(), choice);
}

async function newGroup() {
  const name = el('input', { id: 'group-name', maxlength: 256, required: true });
  const members = el('input', { id: 'group-members', autocomplete: 'off' });
  const server = el('input', { type: 'checkbox', id: 'group-server' });
  const made = await dialog('New group', [
    el('label', { for: 'group-name' }, 'Group name'), name,
    el('label', { for: 'group-members' }, 'Members (usernames, separated by commas)'), members,
    el('label', { for: 'group-server', class: 'checkbox' }, server,
      ' Administrators and an invite link (the server keeps the group, encrypted: it cannot see who is in it)'),
  ], [['Cancel', null], ['Create', 'create']], async () => {
    if (!name.value.trim()) throw new Error('Give the group a name');
    return api.makeGroup(name.value.trim(), members.value.split(',').map((m) => m.trim()).filter(Boolean), server.checked);
  });
  if (!made || made === 'create') return;
  await loadInbox();
  await openConversation(made.conversationId);
}

async function joinGroup() {
  const link = el('input', { id: 'join-link', autocomplete: 'off', required: true });
  const joined = await dialog('Join a group', [el('label', { for: 'join-link' }, 'Invite link'), link],
    [['Cancel', null], ['Join', 'join']], async () => {
      if (!link.value.trim()) throw new Error('Paste the invite link');
      return api.joinGroup(link.value.trim());
    });
  if (!joined || joined === 'join') return;
  await loadInbox();
  if (joined.joined && joined.conversationId) await openConversation(joined.conversationId);
  else announce('Asked to join: an administrator will decide');
}

/** A server-stored group's settings, for its administrators: who may do what, the invite link, requests to join. */
function groupSettings(group) {
  const server = group.server;
  const who = (id, label, value) => el('select', { id, 'aria-label': label },
    el('option', { value: 'members', selected: value === 'members' }, 'Every member'),
    el('option', { value: 'admins', selected: value === 'admins' }, 'Only administrators'));
  const addMembers = who('group-add-members', 'Who adds members', server.addMembers);
  const editDetails = who('group-edit-details', 'Who edits the name', server.editDetails);
  const sendMessages = who('group-send', 'Who sends messages', server.sendMessages);
  const link = el('select', { id: 'group-link', 'aria-label': 'Invite link' },
    el('option', { value: 'off', selected: server.link === 'off' }, 'Off'),
    el('option', { value: 'open', selected: server.link === 'open' }, 'Anyone with the link joins'),
    el('option', { value: 'approval', selected: server.link === 'approval' }, 'An administrator approves each'));
  const nodes = [
    el('label', { for: 'group-add-members' }, 'Who adds members'), addMembers,
    el('label', { for: 'group-edit-details' }, 'Who edits the name'), editDetails,
    el('label', { for: 'group-send' }, 'Who sends messages'), sendMessages,
    el('label', { for: 'group-link' }, 'Invite link'), link,
  ];
  const read = () => ({ addMembers: addMembers.value, editDetails: editDetails.value, sendMessages: sendMessages.value, link: link.value });
  return { nodes, read, initial: read() };
}

function groupLinkAndRequests(group) {
  const server = group.server;
  const nodes = [];
  if (server.inviteLink) {
    nodes.push(el('label', { for: 'group-link-url' }, 'Invite link (share it with people you want in the group)'),
      el('input', { id: 'group-link-url', readonly: true, value: server.inviteLink }));
  }
  if (server.admin && server.requesting.length) {
    nodes.push(el('h3', {}, 'Asking to join'), el('ul', { 'aria-label': 'Asking to join' }, server.requesting.map((person) =>
      el('li', { class: 'member-row' }, el('span', {}, person.username || person.accountId),
        el('button', {
          type: 'button', 'aria-label': `Approve ${person.username || person.accountId}`,
          onclick: async () => {
            await api.groupSettings(group.id, { approve: person.accountId }).catch((error) => announce(error.message));
            byId('dialog').close();
            await refreshConversation();
          },
        }, 'Approve')))));
  }
  if (server.invited.length) {
    nodes.push(el('p', {}, `Invited: ${server.invited.map((p) => p.username || p.accountId).join(', ')}`));
  }
  return nodes;
}

async function openGroup() {
  const summary = state.current?.summary;
  if (!summary?.groupId) return;
  let group;
  try {
    group = await api.group(summary.groupId);
  } catch (error) {
    announce(error.message);
    return;
  }
  const rename = el('input', { id: 'group-rename', value: group.title, maxlength: 256 });
  const add = el('input', { id: 'group-add', autocomplete: 'off' });
  const server = group.server;
  const admins = new Set((server?.administrators || []).map((person) => person.accountId));
  const iAmAdmin = Boolean(server?.admin);
  const memberList = el('ul', { 'aria-label': 'Members' },
    group.members.map((member) => el('li', { class: 'member-row' },
      el('span', {}, (member.accountId === state.me.accountId ? `${state.me.username} (you)` : member.username || member.accountId)
        + (admins.has(member.accountId) ? ' · admin' : '')),
      server && iAmAdmin && !admins.has(member.accountId) && !group.left ? el('button', {
        type: 'button', 'aria-label': `Make ${member.username || member.accountId} an administrator`,
        onclick: async () => {
          await api.groupSettings(group.id, { admin: member.accountId }).catch((error) => announce(error.message));
          byId('dialog').close();
          await refreshConversation();
        },
      }, 'Make admin') : null,
      member.accountId === state.me.accountId || group.left || (server && !iAmAdmin) ? null : el('button', {
        type: 'button', class: 'danger', 'aria-label': `Remove ${member.username || member.accountId}`,
        onclick: async () => {
          await api.changeGroup(group.id, { remove: [member.accountId] }).catch((error) => announce(error.message));
          byId('dialog').close();
          await refreshConversation();
        },
      }, 'Remove'))));
  const settings = server && iAmAdmin && !group.left ? groupSettings(group) : null;
  const choice = await dialog(group.title, [
    memberList,
    ...(server ? groupLinkAndRequests(group) : []),
    el('label', { for: 'group-rename' }, 'Name'), rename,
    el('label', { for: 'group-add' }, 'Add members (usernames, separated by commas)'), add,
    ...(settings ? settings.nodes : []),
  ], group.left ? [['Close', null]] : [['Close', null], ['Leave group', 'leave', 'danger'], ['Save', 'save']], async (value) => {
    if (value !== 'save') return value;
    const adding = add.value.split(',').map((m) => m.trim()).filter(Boolean);
    const title = rename.value.trim();
    if ((title && title !== group.title) || adding.length) {
      await api.changeGroup(group.id, { title: title || null, add: adding });
    }
    if (settings) {
      const now = settings.read();
      const changed = Object.fromEntries(Object.entries(now).filter(([key, value]) => settings.initial[key] !== value));
      if (Object.keys(changed).length) await api.groupSettings(group.id, changed);
    }
    return 'save';
  });
  if (choice === 'leave') await api.leaveGroup(group.id).catch((error) => announce(error.message));
  await loadInbox();
  await refreshConversation();
}

async function openSettings() {
  const me = await api.state();
  const receipts = el('input', { type: 'checkbox', id: 'setting-receipts', checked: me.readReceipts });
  const typing = el('input', { type: 'checkbox', id: 'setting-typing', checked: me.typingIndicators });
  const notifications = el('button', {
    type: 'button', id: 'setting-notifications',
    onclick: async () => {
      if (!('Notification' in window)) return announce('This browser cannot show notifications');
      const permission = await Notification.requestPermission();
      announce(permission === 'granted' ? 'Notifications on' : 'Notifications are off');
    },
  }, 'Allow desktop notifications');
  const choice = await dialog('Settings', [
    el('div', { class: 'checkbox' }, receipts, el('label', { for: 'setting-receipts' }, 'Send read receipts')),
    el('div', { class: 'checkbox' }, typing, el('label', { for: 'setting-typing' }, 'Send typing indicators')),
    el('div', { class: 'setting-buttons' },
      notifications,
      el('button', { type: 'button', id: 'setting-username', onclick: () => byId('dialog').close('username') }, 'Username'),
      el('button', { type: 'button', id: 'setting-backup', onclick: () => byId('dialog').close('backup') }, 'Backup'),
      el('button', { type: 'button', id: 'setting-push', onclick: () => byId('dialog').close('push') }, 'Push'),
      el('button', { type: 'button', id: 'setting-checks', onclick: () => byId('dialog').close('checks') }, 'Content checks')),
    el('p', {}, `Account ${me.username} on ${me.server}, device ${me.deviceId}.`),
  ], [['Devices', 'devices'], ['Cancel', null], ['Save', 'save']]);
  const next = choice ?? byId('dialog').returnValue;
  byId('dialog').returnValue = '';
  if (next === 'save') await api.settings({ readReceipts: receipts.checked, typingIndicators: typing.checked });
  if (next === 'devices') await openDevices();
  if (next === 'username') await openUsername();
  if (next === 'backup') await openBackup();
  if (next === 'push') await openPush();
  if (next === 'checks') await openContentChecks();
}

// The username others find this account by (nickname.NN) and its link, as text and as a QR code. The server keeps
// only the username's hash and the link encrypted.
async function openUsername() {
  let current = null;
  try {
    current = await api.username();
  } catch (error) {
    announce(error.message);
    return;
  }
  const nickname = el('input', { id: 'username-nickname', autocomplete: 'off', maxlength: 32, placeholder: 'e.g. wanderer' });
  const number = el('input', { id: 'username-number', autocomplete: 'off', inputmode: 'numeric', maxlength: 20, placeholder: 'random' });
  const body = [];
  if (!current.username) {
    body.push(el('p', { id: 'username-current' }, 'No username yet: people can find you only by your account name.'));
  } else {
    body.push(el('p', { id: 'username-current' }, 'Your username is ', el('strong', {}, current.username), '.'));
    if (current.link) {
      body.push(
        el('p', {}, 'Anyone with this link or code finds your account; the server cannot read either.'),
        el('img', { class: 'qr', id: 'username-qr', alt: `QR code of the username link for ${current.username}`, src: `/api/username/link/qr?at=${Date.now()}` }),
        el('p', { class: 'username-link' }, el('code', { id: 'username-link' }, current.link)));
    } else {
      body.push(el('p', { id: 'username-no-link' }, 'No username link on this device: make a new one to share.'));
    }
  }
  body.push(
    el('label', { for: 'username-nickname' }, current.username ? 'A new nickname' : 'Nickname (3 to 32 letters, digits or _, not starting with a digit)'),
    nickname,
    el('label', { for: 'username-number' }, 'Number after the dot (two digits or more; leave empty for a random one)'),
    number,
  );
  const buttons = [['Close', null]];
  if (current.username) buttons.push(['Delete username', 'delete', 'danger'], ['New link', 'reset']);
  buttons.push(['Take username', 'take']);
  const choice = await dialog('Username', body, buttons, async (value) => {
    if (value === 'delete') {
      await api.deleteUsername();
      return 'deleted';
    }
    if (value === 'reset') {
      await api.resetUsernameLink();
      return 'reset';
    }
    if (!nickname.value.trim()) throw new Error('Choose a nickname first');
    const taken = await api.setUsername(nickname.value.trim(), number.value.trim() || null);
    return `taken ${taken.username}`;
  });
  if (choice === 'deleted') announce('Username deleted');
  if (choice === 'reset') announce('New username link made: the old one no longer works');
  if (choice && choice.startsWith('taken ')) announce(`Your username is now ${choice.slice(6)}`);
  if (choice === 'reset' || (choice && choice.startsWith('taken '))) await openUsername();
}

// The PIN-protected backup of this account's identity: what restores it on a new machine if this one is lost.
async function openBackup() {
  let status = null;
  try {
    status = await api.backup();
  } catch (error) {
    announce(error.message);
    return;
  }
  const pin = el('input', { id: 'backup-pin', type: 'password', autocomplete: 'new-password', minlength: 4 });
  const again = el('input', { id: 'backup-pin-again', type: 'password', autocomplete: 'new-password', minlength: 4 });
  const described = status.exists
    ? `Stored ${new Date(status.created).toLocaleString()} (${status.kdf?.algorithm || 'unknown stretch'}); ${status.failures || 0} wrong PIN guesses since.`
    : 'No backup is stored. Without one, losing this machine loses the account.';
  const buttons = [['Close', null]];
  if (status.exists) buttons.push(['Delete backup', 'delete', 'danger']);
  buttons.push([status.exists ? 'Replace backup' : 'Store backup', 'store']);
  const choice = await dialog('Backup', [
    el('p', { id: 'backup-status' }, described),
    el('p', {}, 'The PIN never leaves this machine. The server allows 5 guesses per 5 minutes and deletes the backup after 10 wrong ones in a row.'),
    el('label', { for: 'backup-pin' }, 'PIN (at least 4 characters)'), pin,
    el('label', { for: 'backup-pin-again' }, 'The PIN again'), again,
  ], buttons, async (value) => {
    if (value === 'delete') {
      await api.deleteBackup();
      return 'deleted';
    }
    if (pin.value.length < 4) throw new Error('A PIN has at least 4 characters');
    if (pin.value !== again.value) throw new Error('The two PINs differ');
    await api.createBackup(pin.value);
    return 'stored';
  });
  if (choice === 'stored') announce('Backup stored');
  if (choice === 'deleted') announce('Backup deleted');
}

// Where the server wakes this device when messages wait and it is not connected.
async function openPush() {
  let status = null;
  try {
    status = await api.push();
  } catch (error) {
    announce(error.message);
    return;
  }
  const endpoint = el('input', { id: 'push-endpoint', type: 'url', autocomplete: 'off', placeholder: 'https://ntfy.sh/…' });
  const described = status.provider
    ? `Woken through ${status.provider}: ${status.destination}${status.keysRegistered ? '' : ' (not until this device\'s keys are on the server)'}.`
    : 'Not woken by push: messages wait on the server until this device connects.';
  const buttons = [['Close', null]];
  if (status.provider) buttons.push(['Stop waking', 'remove', 'danger']);
  buttons.push(['Register', 'register']);
  const choice = await dialog('Push', [
    el('p', { id: 'push-status' }, described),
    el('p', {}, `The server pushes through: ${status.providers.join(', ') || 'nothing'}. A push says only “wake up”, never who wrote or what.`),
    el('label', { for: 'push-endpoint' }, 'A Web Push (UnifiedPush) endpoint, such as an ntfy topic'), endpoint,
  ], buttons, async (value) => {
    if (value === 'remove') {
      await api.removePush();
      return 'removed';
    }
    if (!endpoint.value.trim()) throw new Error('Enter the endpoint\'s https:// address');
    await api.registerPush(endpoint.value.trim());
    return 'registered';
  });
  if (choice === 'registered') announce('Push registered');
  if (choice === 'removed') announce('Push removed');
}

// Duplicate content detection: whether the configuration works and the server answers hash lookups, and a file
// looked up in the server's banks without sending it.
async function openContentChecks() {
  let steps = [];
  try {
    steps = await api.contentDetection();
  } catch (error) {
    announce(error.message);
    return;
  }
  const file = el('input', { id: 'check-file', type: 'file' });
  const result = el('p', { id: 'check-result', role: 'status' });
  const check = el('button', {
    type: 'button', id: 'check-file-button',
    onclick: async () => {
      const chosen = file.files[0];
      if (!chosen) {
        result.textContent = 'Choose a file first.';
        return;
      }
      result.textContent = 'Checking…';
      try {
        const { sha256, verdict } = await api.checkContent(await api.upload(chosen, () => {}));
        const banks = verdict.banks.join(', ');
        const outcome = verdict.blocked ? `BLOCKED (${banks})` : verdict.found ? `seen before (${banks})`
          : verdict.source === 'failOpen' ? 'unknown (the check failed; allowed)' : 'not found';
        result.textContent = `${chosen.name}: ${outcome}. SHA-256 ${sha256}`;
      } catch (error) {
        result.textContent = `The check failed: ${error.message}`;
      }
    },
  }, 'Check file');
  await dialog('Content checks', [
    el('p', {}, 'Attachments are checked against the server\'s banks of known harmful files before they are sent or opened; the server never sees a whole hash unless configured to.'),
    el('ul', { id: 'content-checks', 'aria-label': 'Checks' },
      steps.map((step) => el('li', { class: step.ok ? 'pass' : 'fail' }, `${step.ok ? '✓' : '✗'} ${step.check}: ${step.detail}`))),
    el('label', { for: 'check-file' }, 'Look a file up in the banks (it is not sent)'), file, check, result,
  ], [['Close', null]]);
}

async function openDevices() {
  let devices = [];
  try {
    devices = await api.devices();
  } catch (error) {
    announce(error.message);
  }
  const code = el('input', { id: 'device-code', autocomplete: 'off', spellcheck: 'false' });
  const list = el('ul', { 'aria-label': 'Linked devices' },
    devices.map((device) => el('li', { class: 'member-row' },
      el('span', {}, `${device.name || `Device ${device.deviceId}`}${device.current ? ' (this one)' : ''}, linked ${when(device.created)}`),
      device.current ? null : el('button', {
        type: 'button', class: 'danger', 'aria-label': `Remove ${device.name || `device ${device.deviceId}`}`,
        onclick: async () => {
          await api.removeDevice(device.deviceId).catch((error) => announce(error.message));
          byId('dialog').close();
          await openDevices();
        },
      }, 'Remove'))));
  await dialog('Devices', [
    list,
    el('label', { for: 'device-code' }, 'Link a new device: paste the code it shows'), code,
  ], [['Close', null], ['Link device', 'link']], async () => {
    if (!code.value.trim()) throw new Error('Paste the new device\'s code');
    await api.approveDevice(code.value.trim());
    announce('Device linked');
    return 'link';
  });
}

// MARK: Dialogs

/**
 * Shows the dialog with `title`, `body` nodes and `buttons` ([label, value, class?]); resolves to the chosen value
 * (null for Cancel or Esc). `accept(value)`, when given, runs before it closes for a non-null value: its result is
 * what the dialog resolves to, and an error it throws is shown and keeps the dialog open.
 */
function dialog(title, body, buttons, accept) {
  const node = byId('dialog');
  byId('dialog-title').textContent = title;
  byId('dialog-body').replaceChildren(...body);
  byId('dialog-error').textContent = '';
  return new Promise((resolve) => {
    let settled = false;
    const finish = (value) => {
      if (settled) return;
      settled = true;
      node.removeEventListener('close', onClose);
      if (node.open) node.close();
      resolve(value);
    };
    const onClose = () => finish(null);
    node.addEventListener('close', onClose);
    byId('dialog-buttons').replaceChildren(
      ...buttons.map(([label, value, className]) =>
        el('button', {
          type: 'button', class: className,
          onclick: async () => {
            if (value === null) return finish(null);
            if (!accept) return finish(value);
            try {
              finish(await accept(value));
            } catch (error) {
              byId('dialog-error').textContent = error.message;
            }
          },
        }, label)),
    );
    node.showModal();
    const first = node.querySelector('#dialog-body input, #dialog-body button, #dialog-buttons button');
    if (first) first.focus();
  });
}

window.addEventListener('unhandledrejection', (event) => {
  if (event.reason instanceof APIError) announce(event.reason.message);
});

start().catch((error) => {
  document.body.replaceChildren(el('p', { class: 'error', role: 'alert' }, `Parley could not start: ${error.message}`));
});
