import fs from "node:fs";
import path from "node:path";
import { type Browser, type BrowserContext, expect, type Page, type Request, test } from "@playwright/test";
import config from "../playwright.config";
import { type LlmServer, startLlmServer, TRANSCRIPTION_TEXT, type WavInfo } from "../../apps/server/src/test/llm-server";
import { BARE_BASE_URL, loginAs, openMarketAgent, registerTestModel, removeTestModels, snap, unique } from "./helpers";

/**
 * Voice input on the chat page in a real Chromium: the fake microphone plays a WAV file
 * (a tone for speech, zeros for silence); the speech-to-text call goes through the platform
 * to a local OpenAI-compatible audio model (apps/server/src/test/llm-server.ts), which refuses
 * anything but a 16 kHz mono 16-bit WAV.
 */
const AUDIO_PORT = Number(process.env.E2E_PORT ?? 8190) + 10;
const MODEL_NAME = "语音测试模型";
const RECORDING = "正在录音，松开空格键结束";
const NO_SPEECH = "暂未检测到内容，请重新录制！";

/** A 16-bit mono WAV: a 440 Hz tone of `amplitude` (0 for silence). */
function writeWav(file: string, rate: number, seconds: number, amplitude: number) {
  const n = rate * seconds;
  const b = Buffer.alloc(44 + n * 2);
  b.write("RIFF", 0);
  b.writeUInt32LE(36 + n * 2, 4);
  b.write("WAVE", 8);
  b.write("fmt ", 12);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate * 2, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write("data", 36);
  b.writeUInt32LE(n * 2, 40);
  for (let i = 0; i < n; i++) b.writeInt16LE(Math.round(amplitude * 0x7fff * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, b);
  return file;
}

const dir = path.resolve(import.meta.dirname, "../../.tmp/voice");
// Different rates on purpose: the recording must come out at 16 kHz whatever the device gives.
const TONE = writeWav(path.join(dir, "tone-48k.wav"), 48_000, 4, 0.4);
const SILENCE = writeWav(path.join(dir, "silence-16k.wav"), 16_000, 4, 0);

const base = config.use?.launchOptions ?? {};
const baseArgs = base.args ?? [];
const fakeMic = (wav: string) => [
  "--use-fake-device-for-media-stream",
  "--use-fake-ui-for-media-stream",
  `--use-file-for-fake-audio-capture=${wav}`,
];

test.describe.configure({ mode: "serial" });

// In this process, to see what the model received.
let model: LlmServer | undefined;
// A browser whose microphone plays the tone. Launched here rather than through `test.use({ launchOptions })`,
// which would give this file a worker of its own, started last and run alone while the other worker idles.
let tone: Browser | undefined;
test.beforeAll(async ({ request, playwright }) => {
  tone = await playwright.chromium.launch({ ...base, args: [...baseArgs, ...fakeMic(TONE)] });
  model = await startLlmServer({ port: AUDIO_PORT });
  // The shared platform's one AUDIO model (no other spec relies on one): a first try's is removed first.
  await removeTestModels(request, MODEL_NAME);
  await registerTestModel(request, `${MODEL_NAME}-${unique()}`, { port: AUDIO_PORT, type: "AUDIO", isDefault: true });
});
test.afterAll(async ({ request }) => {
  await removeTestModels(request, MODEL_NAME);
  await model?.close();
  await tone?.close();
});

/** Records the page's microphone streams and audio contexts, to check they are released. */
async function watchMedia(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __voice: { streams: MediaStream[]; contexts: AudioContext[] } };
    w.__voice = { streams: [], contexts: [] };
    const md = navigator.mediaDevices;
    if (md?.getUserMedia) {
      const gum = md.getUserMedia.bind(md);
      md.getUserMedia = async (c) => {
        const s = await gum(c);
        w.__voice.streams.push(s);
        return s;
      };
    }
    const Base = window.AudioContext;
    window.AudioContext = class extends Base {
      constructor(o?: AudioContextOptions) {
        super(o);
        w.__voice.contexts.push(this);
      }
    };
  });
}
const media = (page: Page) =>
  page.evaluate(() => {
    const v = (window as unknown as { __voice: { streams: MediaStream[]; contexts: AudioContext[] } }).__voice;
    return {
      streams: v.streams.length,
      liveTracks: v.streams.flatMap((s) => s.getTracks()).filter((t) => t.readyState !== "ended").length,
      contexts: v.contexts.map((c) => ({ state: c.state, rate: c.sampleRate })),
    };
  });

/** A toast, shown and done with its entrance animation (for the screenshot). */
async function toast(page: Page, text: string) {
  const notice = page.locator(".ant-message-notice", { hasText: text });
  await expect(notice).toBeVisible();
  await expect
    .poll(() =>
      notice.evaluate((el) => {
        let opacity = 1;
        for (let e: Element | null = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
        return opacity;
      }),
    )
    .toBe(1);
  return notice;
}

/** The member's signed-in browser state per platform, to sign in once. */
const signedIn = new Map<string, Awaited<ReturnType<BrowserContext["storageState"]>>>();

/** A fresh signed-in member on an agent's chat page, focus in the input. */
async function openChat(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL, locale: "zh-CN", storageState: signedIn.get(baseURL) });
  const page = await context.newPage();
  await watchMedia(page);
  if (!signedIn.has(baseURL)) {
    await loginAs(page, "member");
    signedIn.set(baseURL, await context.storageState());
  }
  await openMarketAgent(page, "营销文案大师");
  const input = page.locator(".ant-sender textarea");
  await input.focus();
  const speech: Request[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/speech_to_text")) speech.push(r);
  });
  return { context, page, input, speech };
}

test("a tap types a space; holding space records, uploads a 16 kHz WAV and sends the transcription", async ({ baseURL }) => {
  const { context, page, input, speech } = await openChat(tone!, baseURL!);

  // Typing: a tap of the space key types a space, in an empty input and between words.
  await input.press(" ");
  await input.pressSequentially("a b");
  await expect(input).toHaveValue(" a b");
  // Holding space in a non-empty input types spaces (auto-repeat), never records.
  await page.keyboard.down(" ");
  await page.keyboard.down(" ");
  await page.keyboard.up(" ");
  await expect(input).toHaveValue(" a b  ");
  await expect(page.getByRole("status").filter({ hasText: RECORDING })).toHaveCount(0);
  await input.fill("");

  // Hold: the recording shows; the key's auto-repeat types nothing.
  const upload = page.waitForRequest((r) => r.url().includes("/speech_to_text"));
  await page.keyboard.down(" ");
  const status = page.getByRole("status").filter({ hasText: RECORDING });
  await expect(status).toBeVisible();
  await page.keyboard.down(" ");
  await page.keyboard.down(" ");
  await expect(status).toHaveAttribute("data-heard", "true");
  await expect(input).toHaveValue("");
  await snap(page, "chat-voice-recording");
  expect((await media(page)).liveTracks).toBe(1);

  // Release: the WAV goes up, the transcription is sent as the user's audio message.
  await page.keyboard.up(" ");
  const req = await upload;
  const res = await req.response();
  expect(await res?.json()).toMatchObject({ code: 200, data: { text: TRANSCRIPTION_TEXT } });
  const sent = page.getByTestId("msg-user").last();
  await expect(sent).toContainText(TRANSCRIPTION_TEXT);
  // The recording plays back: a WAV the browser reads, as long as the upload.
  await expect.poll(() => sent.locator("audio").evaluate((a: HTMLAudioElement) => a.duration)).toBeGreaterThan(0.2);
  await expect(status).toHaveCount(0);
  await expect(input).toHaveValue("");
  await snap(page, "chat-voice-sent");

  // Microphone and audio context are released; the context ran at 16 kHz.
  const m = await media(page);
  expect(m).toMatchObject({ streams: 1, liveTracks: 0, contexts: [{ state: "closed", rate: 16_000 }] });
  expect(speech).toHaveLength(1);

  // What the audio model received: the platform's multipart with the browser's WAV, 16 kHz mono 16-bit, audible.
  const got = model!.requests.filter((r) => r.path === "/v1/audio/transcriptions");
  expect(got).toHaveLength(1);
  expect(got[0].body).toMatchObject({ model: "whisper-1", language: "zh", file: { filename: "speech.wav", contentType: "audio/wav" } });
  const wav = (got[0].body.file as { wav: WavInfo }).wav;
  expect(wav).toMatchObject({ format: 1, channels: 1, sampleRate: 16_000, bitsPerSample: 16 });
  expect(wav.durationMs).toBeGreaterThan(200);
  expect(wav.peak).toBeGreaterThan(0.2);
  await context.close();
});

test("silence: a hold warns without uploading; held on, the recording stops itself after 5000 ms", async ({ playwright, baseURL }) => {
  const quiet = await playwright.chromium.launch({ ...base, args: [...baseArgs, ...fakeMic(SILENCE)] });
  try {
    const { page, input, speech } = await openChat(quiet, baseURL!);
    const status = page.getByRole("status").filter({ hasText: RECORDING });
    const warning = page.locator(".ant-message-notice", { hasText: NO_SPEECH });

    // Released after a moment of silence: nothing to send.
    await page.keyboard.down(" ");
    await expect(status).toBeVisible();
    expect((await media(page)).liveTracks).toBe(1);
    await page.keyboard.up(" ");
    await toast(page, NO_SPEECH);
    await expect(status).toHaveCount(0);
    await snap(page, "chat-voice-no-speech");
    expect((await media(page)).liveTracks).toBe(0);

    // Held on in silence: the recording ends by itself 5000 ms after it started.
    await page.reload();
    await input.focus();
    await page.keyboard.down(" ");
    await expect(status).toBeVisible();
    const started = Date.now();
    await expect(warning).toBeVisible({ timeout: 15_000 });
    const elapsed = Date.now() - started;
    await expect(status).toHaveCount(0);
    expect(elapsed).toBeGreaterThan(4_500);
    await page.keyboard.up(" ");
    const m = await media(page);
    expect(m.liveTracks).toBe(0);
    expect(m.contexts.every((c) => c.state === "closed")).toBe(true);
    expect(speech).toHaveLength(0);
    await expect(input).toHaveValue("");
  } finally {
    await quiet.close();
  }
});

test("without an audio model the server's message shows", async () => {
  // The platform no spec gives a model.
  const { context, page, input, speech } = await openChat(tone!, BARE_BASE_URL);
  await page.keyboard.down(" ");
  const status = page.getByRole("status").filter({ hasText: RECORDING });
  await expect(status).toHaveAttribute("data-heard", "true");
  await page.keyboard.up(" ");
  await expect(await toast(page, "暂无可用的语音识别模型")).toContainText("模型管理");
  await snap(page, "chat-voice-no-model");
  expect(speech).toHaveLength(1);
  expect((await speech[0].response())?.status()).toBe(400);
  await expect(page.getByTestId("msg-user")).toHaveCount(0);
  await expect(input).toHaveValue("");
  await context.close();
});

test("no microphone: 不支持录音; microphone refused: 打开麦克风失败", async ({ playwright, baseURL }) => {
  const cases = [
    // This machine has no microphone: a browser without the fake device finds none.
    { args: baseArgs, text: "不支持录音", shot: "chat-voice-no-microphone" },
    // A microphone, but the person refuses the permission prompt.
    {
      args: [...baseArgs, "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream=deny"],
      text: "打开麦克风失败",
      shot: "chat-voice-mic-refused",
    },
  ];
  for (const c of cases) {
    const other = await playwright.chromium.launch({ ...base, args: c.args });
    try {
      const { page, input, speech } = await openChat(other, baseURL!);
      await page.keyboard.down(" ");
      await toast(page, c.text);
      await page.keyboard.up(" ");
      await snap(page, c.shot);
      await expect(page.getByRole("status")).toHaveCount(0);
      await expect(input).toHaveValue("");
      expect(speech).toHaveLength(0);
      expect((await media(page)).contexts).toHaveLength(0);
    } finally {
      await other.close();
    }
  }
});
