import stations from "../data/stations.json";

/**
 * The built-in station table (doc 2 §3 Station entry): city → its stations with their three-letter
 * China Railway telecodes, taken from 12306's station_name.js (data/README.md says how). A ticket's
 * city is the group holding its station (§5).
 */
export const STATIONS = stations as unknown as Record<string, [name: string, code: string][]>;

const cityByStation = new Map<string, string>();
const codeByStation = new Map<string, string>();
for (const [city, list] of Object.entries(STATIONS))
  for (const [name, code] of list) {
    cityByStation.set(name, city);
    codeByStation.set(name, code);
  }

const clean = (station: unknown) =>
  typeof station === "string" || typeof station === "number"
    ? String(station)
        .trim()
        .replace(/(火车)?站$/, "")
    : "";

/** The city whose group contains this station (a trailing 站 is ignored); undefined when none does. */
export function cityOfStation(station: unknown): string | undefined {
  const name = clean(station);
  return name ? cityByStation.get(name) : undefined;
}

/** The station's three-letter telecode, when the table has it. */
export function stationCode(station: unknown): string | undefined {
  const name = clean(station);
  return name ? codeByStation.get(name) : undefined;
}
