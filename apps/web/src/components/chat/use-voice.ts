import { SPEECH_SAMPLE_RATE, SPEECH_SILENCE_MS } from "@agentfair/contracts";
import { useCallback, useEffect, useRef, useState } from "react";

/** 16-bit mono PCM WAV of the samples. */
export function encodeWav(samples: Float32Array, rate: number) {
  const buffer = new ArrayBuffer(44 + samples.length * 2);
  const v = new DataView(buffer);
  const str = (o: number, s: string) => {
    for (let i = 0; i < s.length; i++) v.setUint8(o + i, s.charCodeAt(i));
  };
  str(0, "RIFF");
  v.setUint32(4, 36 + samples.length * 2, true);
  str(8, "WAVE");
  str(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  str(36, "data");
  v.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i++) v.setInt16(44 + i * 2, Math.round(Math.max(-1, Math.min(1, samples[i])) * 0x7fff), true);
  return new Blob([buffer], { type: "audio/wav" });
}

/** The samples at another rate (each output sample averages the input samples it covers). */
export function resample(samples: Float32Array, from: number, to: number): Float32Array {
  if (from === to) return samples;
  const ratio = from / to;
  const out = new Float32Array(Math.floor(samples.length / ratio));
  for (let i = 0; i < out.length; i++) {
    const a = Math.floor(i * ratio);
    const b = Math.max(a + 1, Math.min(samples.length, Math.floor((i + 1) * ratio)));
    let sum = 0;
    for (let j = a; j < b; j++) sum += samples[j];
    out[i] = sum / (b - a);
  }
  return out;
}

/** Root mean square of a block: above VOICE_RMS counts as sound, below as silence. */
export function rms(data: Float32Array) {
  let sum = 0;
  for (let i = 0; i < data.length; i++) sum += data[i] * data[i];
  return data.length ? Math.sqrt(sum / data.length) : 0;
}
export const VOICE_RMS = 0.015;

/**
 * A recording's silence rule: feed it each block; it says when the recording must end
 * (SPEECH_SILENCE_MS without sound, whether or not anything was heard before).
 */
export function silenceTracker(now: number, silenceMs = SPEECH_SILENCE_MS) {
  let heard = false;
  let lastSound = now;
  return {
    get heard() {
      return heard;
    },
    /** True when the recording should stop. */
    feed(level: number, at: number) {
      if (level > VOICE_RMS) {
        heard = true;
        lastSound = at;
        return false;
      }
      return at - lastSound >= silenceMs;
    },
  };
}

/** Thrown inside start() when stop() came while the microphone was opening. */
class StoppedWhileOpening extends Error {}

interface Session {
  /** Ends the recording; `discard` drops what was recorded. */
  end: (discard?: boolean) => void;
}

/**
 * Voice input: 16 kHz mono recording that ends on `stop()` (release of the key), or after
 * 5000 ms of silence. `start()` resolves to a 16 kHz WAV, or null when nothing audible was
 * recorded (or it was stopped before the microphone opened); it rejects when the microphone
 * cannot be opened. The stream and the audio context are released however it ends, also on unmount.
 */
export function useVoice() {
  const [recording, setRecording] = useState(false);
  /** Sound was heard in the current recording. */
  const [heard, setHeard] = useState(false);
  const session = useRef<Session | null>(null);
  /** Set by a stop that comes while the microphone is still opening. */
  const opening = useRef<{ stopped: boolean; discard: boolean } | null>(null);

  const supported = typeof navigator !== "undefined" && !!navigator.mediaDevices?.getUserMedia && typeof AudioContext !== "undefined";

  const start = useCallback(async (): Promise<Blob | null> => {
    if (session.current || opening.current) return null;
    const pending = { stopped: false, discard: false };
    opening.current = pending;
    let stream: MediaStream | undefined;
    let ctx: AudioContext | undefined;
    let source: MediaStreamAudioSourceNode | undefined;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, sampleRate: SPEECH_SAMPLE_RATE } });
      if (pending.stopped) throw new StoppedWhileOpening();
      try {
        ctx = new AudioContext({ sampleRate: SPEECH_SAMPLE_RATE });
        source = ctx.createMediaStreamSource(stream);
      } catch {
        // Browsers that cannot connect a stream to a context at another rate: record at the
        // device's rate and resample to 16 kHz at the end.
        void ctx?.close();
        ctx = new AudioContext();
        source = ctx.createMediaStreamSource(stream);
      }
      if (ctx.state === "suspended") await ctx.resume();
      if (pending.stopped) throw new StoppedWhileOpening();
    } catch (err) {
      for (const tr of stream?.getTracks() ?? []) tr.stop();
      source?.disconnect();
      if (ctx && ctx.state !== "closed") void ctx.close();
      if (err instanceof StoppedWhileOpening) return null;
      throw err;
    } finally {
      opening.current = null;
    }

    const audio = ctx;
    const input = source;
    const mic = stream;
    const processor = audio.createScriptProcessor(4096, 1, 1);
    const chunks: Float32Array[] = [];
    const silence = silenceTracker(performance.now());
    setHeard(false);
    setRecording(true);
    return new Promise((resolve) => {
      let done = false;
      const end = (discard = false) => {
        if (done) return;
        done = true;
        processor.onaudioprocess = null;
        processor.disconnect();
        input.disconnect();
        for (const tr of mic.getTracks()) tr.stop();
        void audio.close();
        session.current = null;
        setRecording(false);
        setHeard(false);
        if (discard || !silence.heard) return resolve(null);
        const all = new Float32Array(chunks.reduce((n, c) => n + c.length, 0));
        let o = 0;
        for (const c of chunks) {
          all.set(c, o);
          o += c.length;
        }
        resolve(encodeWav(resample(all, audio.sampleRate, SPEECH_SAMPLE_RATE), SPEECH_SAMPLE_RATE));
      };
      session.current = { end };
      processor.onaudioprocess = (e) => {
        const data = new Float32Array(e.inputBuffer.getChannelData(0));
        chunks.push(data);
        const wasHeard = silence.heard;
        const over = silence.feed(rms(data), performance.now());
        if (!wasHeard && silence.heard) setHeard(true);
        if (over) end();
      };
      input.connect(processor);
      processor.connect(audio.destination);
    });
  }, []);

  /** Ends the recording (or the opening of the microphone) and resolves `start()`. */
  const stop = useCallback((discard = false) => {
    if (opening.current) Object.assign(opening.current, { stopped: true, discard });
    session.current?.end(discard);
  }, []);

  // Leaving the page ends the recording and frees the microphone.
  useEffect(() => () => stop(true), [stop]);

  return { supported, recording, heard, start, stop };
}
