import { describe, expect, it } from "vitest";
import { epochSeconds } from "../../src/domain/brand.ts";
import {
  cardChannels,
  dashboard,
  explorePath,
  hiddenGroups,
  isRamax,
  readingText,
  silenceText,
  temperatureView,
  type DashChannel,
  type DashGroup,
  type DashSensor,
} from "../../src/domain/dashboard.ts";

const NOW = epochSeconds(1_800_000_000);
const ch = (kind: string, value: number | null, units: string | null = null, name = kind): DashChannel => ({
  channelKey: `D_S_1200_0_${kind}`,
  kind,
  name,
  value,
  conversion: { units },
});
const group = (key: string, channels: DashChannel[], over: Partial<DashGroup> = {}): DashGroup => ({
  channelKey: key,
  groupType: 1200,
  label: key,
  lastReceived: NOW - 60,
  isHidden: false,
  channels,
  ...over,
});
const sensor = (
  kind: DashSensor["kind"],
  groups: DashGroup[],
  over: Partial<DashSensor> = {},
): DashSensor => ({
  macAddress: `M-${groups[0]?.channelKey}`,
  kind,
  sensorType: "Temp/Humidity",
  label: null,
  isHub: false,
  battery: null,
  pluggedIn: false,
  batteryAlertTriggered: false,
  signal: null,
  lastReceived: NOW - 60,
  channelGroups: groups,
  ...over,
});

describe("device dashboard", () => {
  it("orders readings temperature, humidity, dew point, heat index and shows at most four", () => {
    const channels = [
      ch("voltage", 1),
      ch("heat_index", 2),
      ch("humidity", 3),
      ch("co2", 4),
      ch("dew_point", 5),
      ch("temperature", 6),
    ];
    expect(cardChannels(channels).map((c) => c.kind)).toEqual([
      "temperature",
      "humidity",
      "dew_point",
      "heat_index",
    ]);
    expect(cardChannels([ch("co2", 1), ch("voltage", 2)]).map((c) => c.kind)).toEqual(["co2", "voltage"]);
  });

  it.each([
    [ch("temperature", 4.2), "C", "4.20 °C"],
    [ch("temperature", 5), "C", "5.00 °C"],
    [ch("temperature", 10), "F", "50.0 °F"],
    [ch("temperature", 4.2), "F", "39.6 °F"],
    [ch("temperature", 37.123), "C", "37.12 °C"],
    [ch("dew_point", -3.8), "F", "25.2 °F"],
    [ch("heat_index", 4.8), "F", "40.6 °F"],
    [ch("humidity", 78.04, "%"), "F", "78.04%"],
    [ch("voltage", 11.8, "V"), "C", "11.8 V"],
    [ch("co2", 612, "ppm"), "C", "612 ppm"],
    [ch("temperature", null), "C", "No reading"],
  ] as const)("shows %j in %s as %s", (channel, scale, text) => {
    expect(readingText(channel, scale)).toBe(text);
  });

  it("groups cards as base station, wireless sensors, wired adapters and other channel groups", () => {
    const sensors = [
      sensor("other", [group("o", [ch("co2", 1, "ppm")])]),
      sensor("wired", [group("a", [ch("voltage", 1, "V")])]),
      sensor("wireless", [group("w", [ch("temperature", 1)])]),
      sensor("base", [group("b", [ch("temperature", 1)], { groupType: 1300 })]),
    ];
    expect(dashboard(sensors, "C", NOW).map((s) => [s.title, s.cards.map((c) => c.key)])).toEqual([
      ["Base Station", ["b"]],
      ["Wireless Sensors", ["w"]],
      ["Wired Adapters", ["a"]],
      ["Other Channel Groups", ["o"]],
    ]);
    expect(dashboard(sensors, "C", NOW, true).map((s) => s.title)).toEqual([
      "Controller",
      "Wireless Sensors",
      "Ports",
      "Other Channel Groups",
    ]);
    // A WS2 Wi-Fi sensor is its own unit, not a base station.
    expect(dashboard(sensors, "C", NOW, false, true)[0]!.title).toBe("Sensor");
  });

  it("mutes units silent for over 7200 s, sorts them last and warns on a muted adapter", () => {
    const sensors = [
      sensor("wired", [group("stale", [ch("voltage", 1, "V")], { lastReceived: NOW - 7201 })]),
      sensor("wired", [group("fresh", [ch("voltage", 1, "V")], { lastReceived: NOW - 7200 })]),
      sensor("wireless", [group("quiet", [ch("temperature", 1)], { lastReceived: NOW - 9000 })]),
    ];
    const [wireless, wired] = dashboard(sensors, "C", NOW);
    expect(wired!.cards.map((c) => [c.key, c.muted, c.warning, c.port])).toEqual([
      ["fresh", false, false, 2],
      ["stale", true, true, 1],
    ]);
    expect(wireless!.cards[0]).toMatchObject({
      muted: true,
      warning: false,
      silence: "No reading for 2 hours",
    });
    expect(wired!.cards.map((c) => c.silence)).toEqual([null, "No reading for 2 hours"]);
    const [empty] = dashboard(
      [sensor("wireless", [group("empty", [], { lastReceived: NOW - 9000 })])],
      "C",
      NOW,
    );
    // "No readings" says it already.
    expect(empty!.cards[0]).toMatchObject({ muted: true, readings: [], silence: null });
  });

  it.each([
    [null, "No reading yet"],
    [7201, "No reading for 2 hours"],
    [3 * 3600 + 59 * 60, "No reading for 3 hours"],
    [47 * 3600 + 3599, "No reading for 47 hours"],
    [48 * 3600, "No reading for 2 days"],
    [40 * 86_400, "No reading for 40 days"],
  ])("says how long a unit silent for %s s has been silent: %s", (silent, text) => {
    expect(silenceText(silent === null ? null : epochSeconds(NOW - silent), NOW)).toBe(text);
  });

  it("gives battery bands, a red alert only when not plugged in, and signal for wireless non-hub units", () => {
    const cards = dashboard(
      [
        sensor("wireless", [group("low", [])], { battery: 12, batteryAlertTriggered: true, signal: -91 }),
        sensor("wireless", [group("plugged", [])], {
          battery: 20,
          batteryAlertTriggered: true,
          pluggedIn: true,
          signal: -66,
        }),
        sensor("wireless", [group("hub", [])], { battery: 61, isHub: true, signal: -50 }),
        sensor("wired", [group("wired", [])], { battery: 31, signal: -50 }),
      ],
      "C",
      NOW,
    ).flatMap((s) => s.cards);
    expect(cards.map((c) => [c.key, c.battery?.band, c.battery?.alert, c.signal?.strength ?? null])).toEqual([
      ["low", "Low", true, "Okay"],
      ["plugged", "Low", false, "Strong"],
      ["hub", "Good", false, null],
      ["wired", "Ok", false, null],
    ]);
  });

  it("keeps hidden groups off the cards and lists them as Hidden Sensors", () => {
    const sensors = [
      sensor("wireless", [group("shown", [])]),
      sensor("wireless", [group("hidden", [], { isHidden: true, label: null })], { label: "Storage Closet" }),
    ];
    expect(dashboard(sensors, "C", NOW).flatMap((s) => s.cards.map((c) => c.key))).toEqual(["shown"]);
    expect(hiddenGroups(sensors)).toEqual([{ key: "hidden", title: "Storage Closet" }]);
  });

  it("leaves channel groups of type 1300 out of the internal-temperature view", () => {
    const sensors = [
      sensor("base", [group("base", [ch("temperature", 23.4)], { groupType: 1300 })]),
      sensor("wireless", [group("cold", [ch("humidity", 78, "%"), ch("temperature", 4.2)])]),
      sensor("wired", [group("volts", [ch("voltage", 11.8, "V")], { groupType: 1100 })]),
    ];
    expect(temperatureView(sensors, "F", NOW).map((r) => [r.key, r.reading.text])).toEqual([
      ["cold", "39.6 °F"],
    ]);
  });

  it("knows the RAMAX type and the explore address of a reading", () => {
    expect(isRamax("RAMAX")).toBe(true);
    expect(isRamax("ramax ")).toBe(true);
    expect(isRamax("RA12")).toBe(false);
    expect(explorePath("00:1A_W1_1200_0_1")).toBe("/s/sensor-data/explore/00:1A_W1_1200_0_1");
  });
});
