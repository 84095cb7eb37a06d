/** A point on the Earth in degrees. */
export interface Point {
  readonly latitude: number;
  readonly longitude: number;
}

const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE_OF_LATITUDE = (Math.PI * EARTH_RADIUS_KM) / 180;
export const KM_PER_MILE = 1.609344;

/** Great-circle distance in kilometres (haversine). */
export function distanceKm(from: Point, to: Point): number {
  const radians = Math.PI / 180;
  const dLat = (to.latitude - from.latitude) * radians;
  const dLon = (to.longitude - from.longitude) * radians;
  const a =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(from.latitude * radians) * Math.cos(to.latitude * radians) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * The latitude and longitude ranges that hold every point within `radiusKm` of `center`;
 * `longitude` is null when the circle reaches a pole or spans the antimeridian's far side
 * (every longitude may then be inside).
 */
export interface BoundingBox {
  readonly latitude: { readonly min: number; readonly max: number };
  readonly longitude: { readonly min: number; readonly max: number } | null;
}

export function boundingBox(center: Point, radiusKm: number): BoundingBox {
  const dLat = radiusKm / KM_PER_DEGREE_OF_LATITUDE;
  const latitude = {
    min: Math.max(-90, center.latitude - dLat),
    max: Math.min(90, center.latitude + dLat),
  };
  if (latitude.min <= -90 || latitude.max >= 90) return { latitude, longitude: null };
  // The widest longitude span is at the box's latitude nearest a pole.
  const widest = Math.max(Math.abs(latitude.min), Math.abs(latitude.max));
  const dLon = dLat / Math.cos((widest * Math.PI) / 180);
  if (dLon >= 180) return { latitude, longitude: null };
  return { latitude, longitude: { min: center.longitude - dLon, max: center.longitude + dLon } };
}
