// Types for the parts of open-location-code (no published types) this folder uses.
declare module 'open-location-code' {
  export class OpenLocationCode {
    encode(latitude: number, longitude: number, codeLength?: number): string;
    isValid(code: string): boolean;
    decode(code: string): { latitudeLo: number; latitudeHi: number; longitudeLo: number; longitudeHi: number; latitudeCenter: number; longitudeCenter: number };
  }
  const _default: { OpenLocationCode: typeof OpenLocationCode };
  export default _default;
}
