import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

/**
 * Real services for the RPA e2e: an X display (Xvfb) with a solid background and a window, a VNC
 * server on it (x11vnc with a password), a recording TCP relay in front of it, and an FLV stream
 * (ffmpeg publishing a test pattern to node-media-server on 127.0.0.1).
 */
const root = path.resolve(import.meta.dirname, "../..");
const has = (cmd: string) => spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0;

/** Why the live-service specs cannot run here, or null. */
export function missingLiveTools(): string | null {
  const missing = ["Xvfb", "x11vnc", "ffmpeg", "xsetroot", "xmessage"].filter((c) => !has(c));
  return missing.length ? `RPA e2e skipped: ${missing.join(", ")} not installed (npm test installs xvfb, x11vnc and ffmpeg as root)` : null;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

const waitPort = async (port: number, ms = 15_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, "127.0.0.1", () => {
        s.destroy();
        resolve(true);
      });
      s.on("error", () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listens on ${port}`);
};

const stop = (child: ChildProcess | undefined) =>
  new Promise<void>((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 2000);
  });

/** Background colour of the test display: what the viewer must render. */
export const DISPLAY_RGB = [0x1e, 0x90, 0xff] as const;
export const VNC_PASSWORD = "e2e-pass";

export class VncDesktop {
  private xvfb?: ChildProcess;
  private vnc?: ChildProcess;
  private relay?: net.Server;
  private window?: ChildProcess;
  display = "";
  vncPort = 0;
  relayPort = 0;
  /** Every byte the VNC server received from the bridge, per connection. */
  readonly fromBridge: Buffer[][] = [];

  async start() {
    this.xvfb = spawn("Xvfb", ["-displayfd", "3", "-screen", "0", "640x400x24", "-nolisten", "tcp"], {
      stdio: ["ignore", "ignore", "ignore", "pipe"],
    });
    this.display = await new Promise<string>((resolve, reject) => {
      let out = "";
      this.xvfb?.stdio[3]?.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes("\n")) resolve(`:${out.trim()}`);
      });
      this.xvfb?.on("exit", () => reject(new Error("Xvfb exited")));
    });
    const env = { ...process.env, DISPLAY: this.display };
    spawnSync("xsetroot", ["-solid", "#1e90ff"], { env });
    // A window over the whole screen in the same colour, with a line of text to look at.
    this.window = spawn("xmessage", ["-geometry", "640x400+0+0", "-bg", "#1e90ff", "-fg", "white", "Agentfair RPA e2e"], {
      env,
      stdio: "ignore",
    });
    this.vncPort = await freePort();
    await this.startVnc();
    this.relayPort = await freePort();
    this.relay = net.createServer((client) => {
      const received: Buffer[] = [];
      this.fromBridge.push(received);
      const upstream = net.connect(this.vncPort, "127.0.0.1");
      client.on("data", (d) => {
        received.push(Buffer.from(d));
        upstream.write(d);
      });
      upstream.on("data", (d) => client.write(d));
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on("close", end);
      upstream.on("close", end);
      client.on("error", end);
      upstream.on("error", end);
    });
    await new Promise<void>((r) => this.relay?.listen(this.relayPort, "127.0.0.1", r));
  }

  async startVnc() {
    this.vnc = spawn(
      "x11vnc",
      [
        "-display",
        this.display,
        "-rfbport",
        String(this.vncPort),
        "-localhost",
        "-passwd",
        VNC_PASSWORD,
        "-forever",
        "-shared",
        "-quiet",
        "-noxdamage",
        "-nowf",
      ],
      { stdio: "ignore" },
    );
    await waitPort(this.vncPort);
  }

  async restartVnc() {
    await stop(this.vnc);
    await this.startVnc();
  }

  async close() {
    this.relay?.close();
    await stop(this.vnc);
    await stop(this.window);
    await stop(this.xvfb);
  }
}

/**
 * The client messages in what the bridge sent after the VNC handshake (version 12 bytes, security
 * type 1, VNC auth answer 16, ClientInit 1): their type numbers.
 */
export function clientMessageTypes(bytes: Buffer): number[] {
  let buf = bytes.subarray(30);
  const types: number[] = [];
  while (buf.length) {
    const type = buf[0];
    const len =
      type === 0
        ? 20
        : type === 2
          ? 4 + 4 * buf.readUInt16BE(2)
          : type === 3 || type === 150
            ? 10
            : type === 248
              ? 9 + buf[8]
              : type === 4
                ? 8
                : type === 5
                  ? 6
                  : type === 6
                    ? 8 + Math.abs(buf.readInt32BE(4))
                    : buf.length;
    types.push(type);
    buf = buf.subarray(len);
  }
  return types;
}

export class FlvStream {
  private nms?: ChildProcess;
  private ffmpeg?: ChildProcess;
  rtmpPort = 0;
  httpPort = 0;
  readonly name = `e2e-${process.pid}-${Date.now()}`;

  get url() {
    return `http://127.0.0.1:${this.httpPort}/live/${this.name}.flv`;
  }

  async start() {
    this.rtmpPort = await freePort();
    this.httpPort = await freePort();
    const data = path.join(root, ".tmp", `nms-${this.httpPort}`);
    fs.rmSync(data, { recursive: true, force: true });
    fs.mkdirSync(data, { recursive: true });
    this.nms = spawn(process.execPath, [path.join(root, "e2e/fixtures/media-server.cjs")], {
      cwd: data,
      env: { ...process.env, NMS_DATA: data, NMS_RTMP_PORT: String(this.rtmpPort), NMS_HTTP_PORT: String(this.httpPort) },
      stdio: "ignore",
    });
    await waitPort(this.rtmpPort);
    await waitPort(this.httpPort);
    await this.publish();
  }

  async publish() {
    this.ffmpeg = spawn(
      "ffmpeg",
      [
        ...["-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=15"],
        // A silent audio track too: the media server announces audio in the FLV header, and the
        // player reports media info once it knows every announced track.
        ...["-f", "lavfi", "-i", "anullsrc=channel_layout=mono:sample_rate=22050"],
        ...["-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "15", "-pix_fmt", "yuv420p"],
        ...["-c:a", "aac", "-b:a", "32k"],
        ...["-f", "flv", `rtmp://127.0.0.1:${this.rtmpPort}/live/${this.name}`],
      ],
      { stdio: "ignore" },
    );
  }

  async stopPublishing() {
    await stop(this.ffmpeg);
  }

  async close() {
    await stop(this.ffmpeg);
    await stop(this.nms);
  }
}
