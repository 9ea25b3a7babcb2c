import { serve, type ServerType } from "@hono/node-server";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useTestApp } from "./helpers.ts";

/** Sends raw HTTP/1.1 on one connection and collects everything the server sends until it closes or goes quiet. */
function exchange(port: number, chunks: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let got = "";
    const done = () => {
      socket.destroy();
      resolve(got);
    };
    socket.setTimeout(1500, done);
    socket.on("data", (d) => (got += d.toString("latin1")));
    socket.on("close", done);
    socket.on("error", reject);
    socket.on("connect", () => {
      for (const chunk of chunks) socket.write(chunk);
    });
  });
}

describe("an oversized body", () => {
  const ctx = useTestApp();
  let server: ServerType;
  let port = 0;
  beforeAll(async () => {
    server = serve({ fetch: ctx.app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise<void>((resolve) => server.once("listening", resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ["a device push", "/api/v1/device-data/push", 300 * 1024],
    ["any API call", "/api/v1/session/signin", 1024 * 1024],
  ])("closes the connection on %s and says so in its 413", async (_name, path, size) => {
    const body = JSON.stringify({ pad: "x".repeat(size) });
    const head = [
      `POST ${path} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      "Content-Type: application/json",
      `Content-Length: ${body.length}`,
      "Connection: keep-alive",
    ];
    const got = await exchange(port, [`${head.join("\r\n")}\r\n\r\n`, body]);
    const answer = got.split("\r\n\r\n")[0]!.toLowerCase();
    expect(answer).toMatch(/^http\/1.1 413/);
    expect(answer).toContain("connection: close");
    expect(answer).not.toContain("keep-alive");
  });

  it("takes a body its client cut off for what it is, not for the database being away", async () => {
    const warned = vi.spyOn(console, "warn");
    const head = [
      "POST /api/v1/device-data/push HTTP/1.1",
      `Host: 127.0.0.1:${port}`,
      "Content-Type: application/json",
      "Transfer-Encoding: chunked",
    ];
    // A first chunk promising 1,000 bytes, 10 of them sent, then the connection closed.
    const socket = connect(port, "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write(`${head.join("\r\n")}\r\n\r\n3e8\r\n{"mac":"00`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const lines = warned.mock.calls.map((call) => String(call[0]));
    warned.mockRestore();
    expect(lines.filter((l) => l.includes("database away"))).toEqual([]);
    // And the server goes on answering.
    const got = await exchange(port, [
      `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
    ]);
    expect(got).toMatch(/^HTTP\/1.1 200/);
  });
});
