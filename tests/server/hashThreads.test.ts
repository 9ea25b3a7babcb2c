import { execFileSync } from "node:child_process";
import { scryptSync } from "node:crypto";
import { getPriority } from "node:os";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NICE, scryptOnThread, startHashThread } from "../../server/services/hashThreads.ts";

const OPTIONS = { N: 1024, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const salt = Buffer.from("0123456789abcdef");

/** The nice value of each thread of this process (field 19 of /proc/self/task/<id>/stat). */
const niceValues = () =>
  readdirSync("/proc/self/task").map((id) => {
    const stat = readFileSync(`/proc/self/task/${id}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });

describe("password hashing threads", () => {
  it("gives the key crypto.scrypt gives, for hashes at once", async () => {
    const passwords = ["correct horse", "battery staple", "ünïcödé", ""];
    const keys = await Promise.all(passwords.map((pw) => scryptOnThread(pw, salt, 32, OPTIONS)));
    keys.forEach((key, i) => expect(key.equals(scryptSync(passwords[i]!, salt, 32, OPTIONS))).toBe(true));
  });

  it.runIf(process.platform === "linux")("hashes on a thread below the event loop's priority", async () => {
    const own = getPriority();
    await scryptOnThread("pw", salt, 32, OPTIONS);
    // Lowered to NICE, never raised: a process started at a lower priority keeps its own.
    expect(niceValues()).toContain(Math.max(NICE, own));
    // The calling thread keeps its priority: only the hashing thread is lowered.
    expect(getPriority()).toBe(own);
  });

  it("keeps a process that awaits a hash alive until the hash is done (a seed script)", () => {
    const code = `const m = await import("./server/services/hashThreads.ts");
      const key = await m.scryptOnThread("pw", Buffer.alloc(16), 32, { N: 1024, r: 8, p: 1 });
      console.log(key.length);`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" });
    expect(out.trim()).toBe("32");
  });

  it("still hashes where the system refuses the lower priority", async () => {
    // 100 is out of setPriority's range: it throws as a refusing system would.
    const thread = startHashThread(100);
    // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a worker thread's, not a window's
    thread.postMessage({ password: "pw", salt, len: 32, options: OPTIONS });
    const answer = await new Promise<{ key: Uint8Array }>((resolve) => thread.once("message", resolve));
    await thread.terminate();
    expect(Buffer.from(answer.key).equals(scryptSync("pw", salt, 32, OPTIONS))).toBe(true);
  });

  it("rejects what scrypt refuses and goes on hashing afterwards", async () => {
    await expect(scryptOnThread("pw", salt, 32, { ...OPTIONS, maxmem: 1024 })).rejects.toThrow(/memory/i);
    const key = await scryptOnThread("pw", salt, 32, OPTIONS);
    expect(key.equals(scryptSync("pw", salt, 32, OPTIONS))).toBe(true);
  });
});
