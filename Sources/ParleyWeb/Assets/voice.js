// Recording a voice note in the page: the microphone through MediaRecorder, then decoded and written as a 16 kHz mono
// 16-bit WAV file: the format ParleyKit measures (its duration and waveform travel with the note) and every player reads.

/** The sample rate of a recorded note: speech needs no more. */
const RATE = 16000;
/** The longest note: recording stops by itself after five minutes. */
export const MAXIMUM_SECONDS = 300;

/** One recording at a time from the microphone. */
export class VoiceRecorder {
  /** Whether this browser can record at all. */
  static supported() {
    return Boolean(navigator.mediaDevices?.getUserMedia && window.MediaRecorder && window.OfflineAudioContext);
  }

  /** Asks for the microphone and starts recording; `onLimit` runs if the note reaches its longest. */
  async start(onLimit) {
    this.stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    this.chunks = [];
    this.recorder = new MediaRecorder(this.stream);
    this.recorder.addEventListener('dataavailable', (event) => { if (event.data.size) this.chunks.push(event.data); });
    this.started = Date.now();
    this.limit = setTimeout(onLimit, MAXIMUM_SECONDS * 1000);
    this.recorder.start(250);
  }

  /** Seconds recorded so far. */
  get elapsed() {
    return this.started ? Math.floor((Date.now() - this.started) / 1000) : 0;
  }

  /** Stops recording; resolves to the note as a WAV `Blob`. */
  stop() {
    return new Promise((resolve, reject) => {
      this.recorder.addEventListener('stop', async () => {
        this.release();
        try {
          resolve(await wav(new Blob(this.chunks, { type: this.recorder.mimeType })));
        } catch (error) {
          reject(new Error(`the recording could not be read: ${error.message}`));
        }
      }, { once: true });
      this.recorder.stop();
    });
  }

  /** Stops recording and throws the note away. */
  cancel() {
    if (this.recorder?.state === 'recording') this.recorder.stop();
    this.release();
  }

  release() {
    clearTimeout(this.limit);
    this.stream?.getTracks().forEach((track) => track.stop());
    this.started = 0;
  }
}

/** `recording` (any type the browser decodes) as a 16 kHz mono 16-bit PCM WAV file. */
async function wav(recording) {
  const context = new AudioContext();
  let decoded;
  try {
    decoded = await context.decodeAudioData(await recording.arrayBuffer());
  } finally {
    context.close();
  }
  // One channel at RATE: the offline context mixes the channels down and resamples.
  const offline = new OfflineAudioContext(1, Math.max(1, Math.ceil(decoded.duration * RATE)), RATE);
  const source = offline.createBufferSource();
  source.buffer = decoded;
  source.connect(offline.destination);
  source.start();
  const samples = (await offline.startRendering()).getChannelData(0);
  const view = new DataView(new ArrayBuffer(44 + samples.length * 2));
  const text = (offset, value) => [...value].forEach((c, i) => view.setUint8(offset + i, c.charCodeAt(0)));
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true); // the format chunk's size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // one channel
  view.setUint32(24, RATE, true);
  view.setUint32(28, RATE * 2, true); // bytes per second
  view.setUint16(32, 2, true); // bytes per frame
  view.setUint16(34, 16, true); // bits per sample
  text(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  samples.forEach((sample, i) => view.setInt16(44 + i * 2, Math.max(-1, Math.min(1, sample)) * 0x7fff, true));
  return new Blob([view], { type: 'audio/wav' });
}
