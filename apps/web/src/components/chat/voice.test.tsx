import { act, fireEvent, render, renderHook, screen, waitFor } from "@testing-library/react";
import { App as AntApp } from "antd";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import i18n from "../../i18n";
import { ChatInput } from "./chat-input";
import { createBus, type ChatBusEvents } from "./event-bus";
import { encodeWav, resample, rms, silenceTracker, useVoice, VOICE_RMS } from "./use-voice";

/**
 * Voice input with the browser's media objects replaced by small fakes: the real browser run is
 * e2e/specs/chat-voice.spec.ts; these cover what a fake microphone cannot steer (timing, refusal of
 * a 16 kHz context, stops while the microphone opens, unmount).
 */
class FakeTrack {
  readyState: "live" | "ended" = "live";
  stop() {
    this.readyState = "ended";
  }
}
class FakeStream {
  tracks = [new FakeTrack()];
  getTracks() {
    return this.tracks;
  }
}
class FakeProcessor {
  onaudioprocess: ((e: { inputBuffer: { getChannelData(c: number): Float32Array } }) => void) | null = null;
  connected = false;
  connect() {
    this.connected = true;
  }
  disconnect() {
    this.connected = false;
  }
}
class FakeContext {
  static all: FakeContext[] = [];
  /** Like browsers that cannot connect a stream to a context at another rate than the device's. */
  static deviceRateOnly = false;
  sampleRate: number;
  state: "running" | "suspended" | "closed" = "running";
  destination = {};
  processor?: FakeProcessor;
  constructor(o?: { sampleRate?: number }) {
    this.sampleRate = o?.sampleRate ?? 48_000;
    FakeContext.all.push(this);
  }
  createMediaStreamSource() {
    if (FakeContext.deviceRateOnly && this.sampleRate !== 48_000) throw new DOMException("rates differ", "NotSupportedError");
    return { connect() {}, disconnect() {} };
  }
  createScriptProcessor() {
    this.processor = new FakeProcessor();
    return this.processor;
  }
  async resume() {
    this.state = "running";
  }
  async close() {
    this.state = "closed";
  }
}

const tone = (n = 4096, amplitude = 0.3) =>
  Float32Array.from({ length: n }, (_, i) => amplitude * Math.sin((2 * Math.PI * 440 * i) / 16_000));
const quiet = (n = 4096) => new Float32Array(n);
let now = 0;
/** One processed block of the current recording, at time `at` (ms). */
function feed(block: Float32Array, at = now) {
  now = at;
  const p = FakeContext.all.at(-1)?.processor;
  if (!p?.onaudioprocess) throw new Error("not recording");
  act(() => p.onaudioprocess!({ inputBuffer: { getChannelData: () => block } }));
}
/** jsdom's Blob has no arrayBuffer(). */
const bytesOf = (blob: Blob) =>
  new Promise<ArrayBuffer>((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(r.result as ArrayBuffer);
    r.onerror = () => reject(r.error);
    r.readAsArrayBuffer(blob);
  });
async function wavInfo(blob: Blob) {
  const v = new DataView(await bytesOf(blob));
  return { rate: v.getUint32(24, true), channels: v.getUint16(22, true), bits: v.getUint16(34, true), samples: v.getUint32(40, true) / 2 };
}

const setMediaDevices = (value: unknown) => Object.defineProperty(navigator, "mediaDevices", { value, configurable: true });

let streams: FakeStream[];
let getUserMedia: ReturnType<typeof vi.fn>;
beforeEach(async () => {
  await i18n.changeLanguage("zh");
  now = 0;
  vi.spyOn(performance, "now").mockImplementation(() => now);
  streams = [];
  FakeContext.all = [];
  FakeContext.deviceRateOnly = false;
  getUserMedia = vi.fn(async () => {
    const s = new FakeStream();
    streams.push(s);
    return s;
  });
  setMediaDevices({ getUserMedia });
  vi.stubGlobal("AudioContext", FakeContext);
  // antd's Sender measures itself; jsdom has no ResizeObserver.
  vi.stubGlobal(
    "ResizeObserver",
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("voice helpers", () => {
  it("encodes 16-bit mono PCM WAV and clamps", async () => {
    const blob = encodeWav(Float32Array.from([0, 1, -1, 2]), 16_000);
    expect(blob.type).toBe("audio/wav");
    const v = new DataView(await bytesOf(blob));
    expect(await wavInfo(blob)).toEqual({ rate: 16_000, channels: 1, bits: 16, samples: 4 });
    expect(v.getUint32(28, true)).toBe(32_000);
    expect([1, 2, 3].map((i) => v.getInt16(44 + i * 2, true))).toEqual([0x7fff, -0x7fff, 0x7fff]);
  });

  it("resamples 48 kHz to 16 kHz keeping the level", () => {
    const input = Float32Array.from({ length: 48_000 }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / 48_000));
    const out = resample(input, 48_000, 16_000);
    expect(out).toHaveLength(16_000);
    expect(rms(out)).toBeCloseTo(rms(input), 2);
    expect(resample(input, 16_000, 16_000)).toBe(input);
  });

  it("ends after 5000 ms without sound, counted from the last sound", () => {
    const s = silenceTracker(0);
    expect(s.feed(0, 4_999)).toBe(false);
    expect(s.feed(VOICE_RMS * 2, 4_999)).toBe(false);
    expect(s.heard).toBe(true);
    expect(s.feed(0, 9_998)).toBe(false);
    expect(s.feed(0, 9_999)).toBe(true);
    expect(silenceTracker(0).feed(0, 5_000)).toBe(true);
  });
});

describe("useVoice", () => {
  it("records at 16 kHz until stopped, then frees the microphone and the audio context", async () => {
    const { result } = renderHook(() => useVoice());
    let done!: Promise<Blob | null>;
    await act(async () => {
      done = result.current.start();
    });
    expect(getUserMedia).toHaveBeenCalledWith({ audio: { channelCount: 1, sampleRate: 16_000 } });
    expect(result.current.recording).toBe(true);
    expect(FakeContext.all.map((c) => c.sampleRate)).toEqual([16_000]);
    feed(quiet());
    expect(result.current.heard).toBe(false);
    feed(tone(), 300);
    expect(result.current.heard).toBe(true);
    act(() => result.current.stop());
    const wav = await done;
    expect(await wavInfo(wav!)).toEqual({ rate: 16_000, channels: 1, bits: 16, samples: 8192 });
    expect(result.current.recording).toBe(false);
    expect(streams[0].tracks[0].readyState).toBe("ended");
    expect(FakeContext.all[0].state).toBe("closed");
    expect(FakeContext.all[0].processor?.onaudioprocess).toBeNull();
  });

  it("records at the device's rate and resamples where a 16 kHz context cannot take the stream", async () => {
    FakeContext.deviceRateOnly = true;
    const { result } = renderHook(() => useVoice());
    let done!: Promise<Blob | null>;
    await act(async () => {
      done = result.current.start();
    });
    expect(FakeContext.all.map((c) => [c.sampleRate, c.state])).toEqual([
      [16_000, "closed"],
      [48_000, "running"],
    ]);
    for (let i = 0; i < 3; i++) feed(tone(4096));
    act(() => result.current.stop());
    expect(await wavInfo((await done)!)).toEqual({ rate: 16_000, channels: 1, bits: 16, samples: 4096 });
    expect(FakeContext.all[1].state).toBe("closed");
  });

  it("stops itself after 5000 ms of silence: nothing heard gives null", async () => {
    const { result } = renderHook(() => useVoice());
    let done!: Promise<Blob | null>;
    await act(async () => {
      done = result.current.start();
    });
    feed(quiet(), 2_000);
    feed(quiet(), 4_999);
    expect(result.current.recording).toBe(true);
    feed(quiet(), 5_000);
    expect(await done).toBeNull();
    expect(result.current.recording).toBe(false);
    expect(streams[0].tracks[0].readyState).toBe("ended");
    expect(FakeContext.all[0].state).toBe("closed");
  });

  it("stops itself 5000 ms after the last sound and keeps what was said", async () => {
    const { result } = renderHook(() => useVoice());
    let done!: Promise<Blob | null>;
    await act(async () => {
      done = result.current.start();
    });
    feed(tone(), 1_000);
    feed(quiet(), 5_999);
    expect(result.current.recording).toBe(true);
    feed(quiet(), 6_000);
    expect((await wavInfo((await done)!)).samples).toBe(3 * 4096);
  });

  it("a stop while the microphone opens ends it there: null, microphone released, no context", async () => {
    let open!: (s: FakeStream) => void;
    getUserMedia.mockImplementation(() => new Promise((r) => (open = r)));
    const { result } = renderHook(() => useVoice());
    const done = result.current.start();
    act(() => result.current.stop());
    const stream = new FakeStream();
    open(stream);
    expect(await done).toBeNull();
    expect(stream.tracks[0].readyState).toBe("ended");
    expect(FakeContext.all).toHaveLength(0);
    expect(result.current.recording).toBe(false);
  });

  it("leaving the page mid-recording frees the microphone and drops the recording", async () => {
    const { result, unmount } = renderHook(() => useVoice());
    let done!: Promise<Blob | null>;
    await act(async () => {
      done = result.current.start();
    });
    feed(tone());
    unmount();
    expect(await done).toBeNull();
    expect(streams[0].tracks[0].readyState).toBe("ended");
    expect(FakeContext.all[0].state).toBe("closed");
  });

  it("passes a refused microphone on, with no context left open", async () => {
    getUserMedia.mockRejectedValue(new DOMException("Permission denied", "NotAllowedError"));
    const { result } = renderHook(() => useVoice());
    await expect(result.current.start()).rejects.toMatchObject({ name: "NotAllowedError" });
    expect(FakeContext.all).toHaveLength(0);
  });
});

describe("ChatInput voice", { timeout: 30_000 }, () => {
  const show = (onSend = vi.fn()) => {
    render(
      <AntApp>
        <ChatInput pending={false} bus={createBus<ChatBusEvents>()} onSend={onSend} onStop={() => {}} />
      </AntApp>,
    );
    return { input: screen.getByRole("textbox"), onSend };
  };
  /** fireEvent's result: false when the page prevented the key's default (no space typed). */
  const space = (el: HTMLElement, repeat = false) => fireEvent.keyDown(el, { key: " ", code: "Space", repeat });
  const release = () => fireEvent.keyUp(window, { key: " ", code: "Space" });

  it("a tap types a space; in a non-empty input holding space only types spaces", async () => {
    const { input } = show();
    expect(space(input)).toBe(true);
    release();
    fireEvent.change(input, { target: { value: "a b" } });
    expect(space(input)).toBe(true);
    expect(space(input, true)).toBe(true);
    await new Promise((r) => setTimeout(r, 600));
    release();
    expect(getUserMedia).not.toHaveBeenCalled();
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("holding space on an empty input records (auto-repeat types nothing); release sends the recognised text", async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ code: 200, msg: "", data: { text: "识别的文字" } })));
    vi.stubGlobal("fetch", fetch);
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: () => "blob:voice" }));
    const { input, onSend } = show();
    expect(space(input)).toBe(true);
    expect(space(input, true)).toBe(false);
    expect((await screen.findByRole("status")).textContent).toContain("正在录音，松开空格键结束");
    expect(space(input, true)).toBe(false);
    feed(tone());
    await waitFor(() => expect(screen.getByRole("status").dataset.heard).toBe("true"));
    release();
    await waitFor(() => expect(onSend).toHaveBeenCalledWith("识别的文字", [], "blob:voice"));
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toContain("/agent/agent_runtime/speech_to_text");
    const file = (init.body as FormData).get("file") as File;
    expect(file.name).toBe("speech.wav");
    expect((await wavInfo(file)).rate).toBe(16_000);
    expect(streams[0].tracks[0].readyState).toBe("ended");
    await waitFor(() => expect(screen.queryByRole("status")).toBeNull());
  });

  it("released while the microphone opens: no spaces typed meanwhile, nothing sent, the microphone freed", async () => {
    let open!: (s: FakeStream) => void;
    getUserMedia.mockImplementation(() => new Promise((r) => (open = r)));
    const { input, onSend } = show();
    space(input);
    await waitFor(() => expect(getUserMedia).toHaveBeenCalled());
    expect(space(input, true)).toBe(false);
    release();
    const stream = new FakeStream();
    open(stream);
    expect(await screen.findByText("暂未检测到内容，请重新录制！")).toBeTruthy();
    expect(stream.tracks[0].readyState).toBe("ended");
    expect(FakeContext.all).toHaveLength(0);
    expect(onSend).not.toHaveBeenCalled();
  });

  it.each([
    ["no microphone", new DOMException("Requested device not found", "NotFoundError"), "不支持录音"],
    ["a refused microphone", new DOMException("Permission denied", "NotAllowedError"), "打开麦克风失败"],
  ])("%s is reported", async (_, err, text) => {
    getUserMedia.mockRejectedValue(err);
    const { input } = show();
    space(input);
    expect(await screen.findByText(text)).toBeTruthy();
    release();
  });

  it("a browser without recording says so", async () => {
    setMediaDevices(undefined);
    const { input } = show();
    space(input);
    expect(await screen.findByText("不支持录音")).toBeTruthy();
  });
});
