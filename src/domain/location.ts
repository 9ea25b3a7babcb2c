export const LOCATION_REQUIRED = "Either location or coordinates (lat/lng) must be provided";

/** A location update needs location text or both lat and lng; text is trimmed. */
export function locationUpdate(input: {
  location?: string | null;
  lat?: number | null;
  lng?: number | null;
}):
  | { ok: true; location: string | null; lat: number | null; lng: number | null }
  | { ok: false; message: string } {
  const location = (input.location ?? "").trim();
  const hasCoords = Number.isFinite(input.lat) && Number.isFinite(input.lng);
  if (location === "" && !hasCoords) return { ok: false, message: LOCATION_REQUIRED };
  return {
    ok: true,
    location: location === "" ? null : location,
    lat: hasCoords ? input.lat! : null,
    lng: hasCoords ? input.lng! : null,
  };
}
