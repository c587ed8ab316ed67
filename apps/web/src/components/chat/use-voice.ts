import { SPEECH_SAMPLE_RATE, SPEECH_SILENCE_MS } from "@agentfair/contracts";
import { useCallback, useRef, useState } from "react";

/** 16-bit mono WAV of the recorded samples. */
function encodeWav(samples: Float32Array, rate: number) {
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
  for (let i = 0; i < samples.length; i++) v.setInt16(44 + i * 2, Math.max(-1, Math.min(1, samples[i])) * 0x7fff, true);
  return new Blob([buffer], { type: "audio/wav" });
}

const VOICE_RMS = 0.015;

/**
 * Voice input: 16 kHz mono recording that ends on release, or after 5000 ms of silence.
 * Resolves to a WAV, or null when nothing audible was recorded.
 */
export function useVoice() {
  const [recording, setRecording] = useState(false);
  const stopRef = useRef<(() => void) | null>(null);

  const supported = typeof navigator !== "undefined" && !!navigator.mediaDevices?.getUserMedia && typeof AudioContext !== "undefined";

  const start = useCallback(async (): Promise<Blob | null> => {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, sampleRate: SPEECH_SAMPLE_RATE } });
    const ctx = new AudioContext({ sampleRate: SPEECH_SAMPLE_RATE });
    const source = ctx.createMediaStreamSource(stream);
    const processor = ctx.createScriptProcessor(4096, 1, 1);
    const chunks: Float32Array[] = [];
    let heard = false;
    let lastVoice = Date.now();
    setRecording(true);
    return new Promise((resolve) => {
      const finish = () => {
        processor.disconnect();
        source.disconnect();
        for (const tr of stream.getTracks()) tr.stop();
        void ctx.close();
        setRecording(false);
        stopRef.current = null;
        if (!heard) return resolve(null);
        const total = chunks.reduce((n, c) => n + c.length, 0);
        const all = new Float32Array(total);
        let o = 0;
        for (const c of chunks) {
          all.set(c, o);
          o += c.length;
        }
        resolve(encodeWav(all, ctx.sampleRate));
      };
      stopRef.current = finish;
      processor.onaudioprocess = (e) => {
        const data = new Float32Array(e.inputBuffer.getChannelData(0));
        chunks.push(data);
        const rms = Math.sqrt(data.reduce((s, x) => s + x * x, 0) / data.length);
        if (rms > VOICE_RMS) {
          heard = true;
          lastVoice = Date.now();
        } else if (Date.now() - lastVoice > SPEECH_SILENCE_MS) finish();
      };
      source.connect(processor);
      processor.connect(ctx.destination);
    });
  }, []);

  const stop = useCallback(() => stopRef.current?.(), []);
  return { supported, recording, start, stop };
}
