import { availableParallelism } from "node:os";
import { ApiError } from "../core/errors.ts";

/**
 * Password hashing is deliberately slow (~100 ms of CPU and 32 MiB each); it runs on threads
 * of its own at a lower priority (hashThreads.ts). So at most RUNNING hashes run at once,
 * at most WAITING wait their turn, and each owner (a signed-in person) has one at a time;
 * beyond that a request is refused at once with 429 instead of queueing for seconds, so one
 * flood cannot hold up everybody else's sign-in.
 * RUNNING leaves one core to the event loop (and a local database): with every core
 * hashing, a storm of sign-ins made every other request wait its turn for a core (public
 * order p99 542 ms at 50 connections on 2 cores, 200 sign-ins).
 */
const RUNNING = Math.max(1, availableParallelism() - 1);
const WAITING = 16;
const PER_OWNER = 1;

export const HASH_BUSY = "The server is busy checking passwords. Try again in a moment.";
export const HASH_ALREADY = "A password check for this account is still running. Wait for it to finish.";

let running = 0;
const queue: (() => void)[] = [];
const owners = new Map<string, number>();
let started = 0;

/** How many hashes have started since the process began (tests and diagnostics). */
export const hashesStarted = () => started;

/** How many hashes wait for a place now. */
export const hashesWaiting = () => queue.length;

/** True when a hash asked for now would be refused: every place taken and the queue full. */
export const hashQueueFull = () => running >= RUNNING && queue.length >= WAITING;

/** Runs one hash when a place is free; refuses with 429 when the owner or the queue is full. */
export async function withHashSlot<T>(owner: string | null, task: () => Promise<T>): Promise<T> {
  if (owner !== null) return asOwner(owner, () => withHashSlot(null, task));
  if (hashQueueFull()) throw new ApiError(429, [{ field: "password", message: HASH_BUSY }]);
  await takePlace();
  try {
    started++;
    return await task();
  } finally {
    givePlace();
  }
}

/**
 * Runs a task for an owner (a session, a person) that has nothing else running, or refuses
 * with 429 at once. Routes that check a password hold the session's turn for the whole
 * request, so a flood from one session is refused before it reaches the database.
 */
export async function asOwner<T>(owner: string, task: () => Promise<T>): Promise<T> {
  if ((owners.get(owner) ?? 0) >= PER_OWNER)
    throw new ApiError(429, [{ field: "password", message: HASH_ALREADY }]);
  owners.set(owner, (owners.get(owner) ?? 0) + 1);
  try {
    return await task();
  } finally {
    forget(owner);
  }
}

function takePlace(): Promise<void> {
  if (running < RUNNING) {
    running++;
    return Promise.resolve();
  }
  // The place is handed over by givePlace, so `running` stays as it is.
  return new Promise((resolve) => queue.push(resolve));
}

function givePlace() {
  const next = queue.shift();
  if (next) next();
  else running--;
}

function forget(owner: string) {
  const left = (owners.get(owner) ?? 1) - 1;
  if (left > 0) owners.set(owner, left);
  else owners.delete(owner);
}
