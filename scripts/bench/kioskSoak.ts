import { chromium } from "@playwright/test";
import { DEMO } from "../../server/seed/demo.ts";
import { CHROMIUM } from "./paint.ts";

/*
 * The kiosk soak of issue 10: the kiosk page with a 1-second refresh for 1,000 cycles (about
 * 17 minutes). A wall display runs for weeks, so the JS heap and the DOM node count after the
 * run must be within 2% of what they were after the first 50 cycles. Printed, not asserted.
 */

const CYCLES = Number(process.env["KIOSK_SOAK_CYCLES"] ?? 1000);
const WARM_UP = 50;

/** Answers the page has painted (src/scripts/reportPage.ts counts them on #report). */
const answers = (page: import("@playwright/test").Page) =>
  page.evaluate(() => Number(document.getElementById("report")?.dataset["answers"] ?? 0));

type Cdp = import("@playwright/test").CDPSession;

/** One heap's bytes after a full collection: in all, and the page's own (see pageHeap). */
interface HeapBytes {
  all: number;
  page: number;
}

/**
 * Bytes of the page's heap after a full collection, from a heap snapshot: in all, and the
 * page's own, which leaves out what is not the page's and stops growing by itself:
 * DevTools' records of each request (blink::NetworkResourcesData, kept because Playwright
 * watches the network, so they grow with the test's instrumentation), V8's compiled code
 * (hot functions are optimised over the first minutes) and V8's number-to-string cache
 * (grown once to its fixed size). A leak of the page (its objects, strings, DOM) stays in.
 */
async function pageHeap(cdp: Cdp): Promise<HeapBytes> {
  await cdp.send("HeapProfiler.enable");
  await cdp.send("HeapProfiler.collectGarbage");
  let text = "";
  const take = (e: { chunk: string }) => (text += e.chunk);
  cdp.on("HeapProfiler.addHeapSnapshotChunk", take);
  await cdp.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
  cdp.off("HeapProfiler.addHeapSnapshotChunk", take);
  const snapshot = JSON.parse(text) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[] } };
    nodes: number[];
    edges: number[];
    strings: string[];
  };
  const { node_fields: fields, node_types: nodeTypes, edge_fields: edgeFields } = snapshot.snapshot.meta;
  const [name, size, type] = ["name", "self_size", "type"].map((f) => fields.indexOf(f));
  const [edgeName, edgeTo] = ["name_or_index", "to_node"].map((f) => edgeFields.indexOf(f));
  // The cache is the target of the root's edge of that name (edges hold node offsets).
  const caches = new Set<number>();
  for (let e = 0; e < snapshot.edges.length; e += edgeFields.length) {
    const label = snapshot.strings[snapshot.edges[e + edgeName!]!];
    if (label === "smi_string_cache" || label === "number_string_cache")
      caches.add(snapshot.edges[e + edgeTo!]!);
  }
  let all = 0;
  let page = 0;
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const bytes = snapshot.nodes[i + size!]!;
    all += bytes;
    const devtools = snapshot.strings[snapshot.nodes[i + name!]!]?.includes("NetworkResourcesData");
    const code = nodeTypes[0][snapshot.nodes[i + type!]!] === "code";
    if (!devtools && !code && !caches.has(i)) page += bytes;
  }
  return { all, page };
}

export async function kioskSoak(base: string) {
  const browser = await chromium.launch(CHROMIUM);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const cdp = await page.context().newCDPSession(page);
    const measure = async () => ({
      heap: await pageHeap(cdp),
      nodes: await page.evaluate(() => document.getElementsByTagName("*").length),
    });
    const until = async (n: number) => {
      while ((await answers(page)) < n) await page.waitForTimeout(1000);
    };
    const started = Date.now();
    await page.goto(`${base}/public/report/${DEMO.reportHash}?kiosk=1&refreshSeconds=1`);
    await until(WARM_UP);
    const warm = await measure();
    await until(CYCLES);
    const end = await measure();
    const pct = (a: number, b: number) => (((b - a) / a) * 100).toFixed(2) + " %";
    const mb = (n: number) => (n / 2 ** 20).toFixed(2);
    console.log(
      `\n| kiosk soak (${CYCLES} refreshes, 1 s) | after ${WARM_UP} | after ${CYCLES} | change |\n|---|---:|---:|---:|`,
    );
    console.log(
      `| JS heap, the page's own (MB) | ${mb(warm.heap.page)} | ${mb(end.heap.page)} | ${pct(warm.heap.page, end.heap.page)} |`,
    );
    console.log(
      `| JS heap in all (MB; with compiled code, V8's number cache, DevTools' records) | ${mb(warm.heap.all)} | ${mb(end.heap.all)} | ${pct(warm.heap.all, end.heap.all)} |`,
    );
    console.log(`| DOM nodes | ${warm.nodes} | ${end.nodes} | ${pct(warm.nodes, end.nodes)} |`);
    console.log(`(${((Date.now() - started) / 60_000).toFixed(1)} min)`);
  } finally {
    await browser.close();
  }
}

/** The report's first chart is on screen (the page script's mark), for the slow-link table. */
export const reportChartShown = (page: import("@playwright/test").Page) =>
  page
    .waitForFunction(() => performance.getEntriesByName("report:chart").length > 0, undefined, {
      timeout: 60_000,
    })
    .then(() => undefined);
