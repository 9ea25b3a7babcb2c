/** One carrier scan of a parcel. */
export interface CarrierEvent {
  at: Date;
  location: string;
  description: string;
  signedForByName: string | null;
}

/** What a carrier knows of a tracking number: the shipping method and its scans, newest first. */
export interface Tracking {
  method: string;
  activity: CarrierEvent[];
}

/** Shipment tracking: the database's activity rows today, a real carrier's API later. */
export interface Carriers {
  /** The tracking number's method and scans, or null when no shipment carries it. */
  tracking(trackingNumber: string): Promise<Tracking | null>;
}

/** Where the default carrier reads its rows (data/shipments.ts in the app). */
export type TrackingReader = (trackingNumber: string) => Promise<Tracking | null>;

/**
 * The default carrier: the shipment's method and the tracking activity rows of the database,
 * newest first whatever order the reader returns them in (every caller shows them so).
 */
export function createCarriers(read: TrackingReader): Carriers {
  return {
    async tracking(trackingNumber) {
      const found = await read(trackingNumber);
      if (!found) return null;
      const activity = [...found.activity].sort((a, b) => b.at.getTime() - a.at.getTime());
      return { method: found.method, activity };
    },
  };
}
