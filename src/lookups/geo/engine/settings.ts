/**
 * Settings of the optional operator-run geocoding engine (Nominatim, Photon or Pelias) that adds
 * street-level answers. Given in `LookupContext.settings.geocoder` or by the environment:
 * `GEOCODER_URL`, `GEOCODER_KIND`, `GEOCODER_TIMEOUT_MS`. Its calls pass the SSRF guard like every
 * outgoing call: a private address needs `ALLOW_PRIVATE_TARGETS` (the lookup settings' copy, else the
 * environment's).
 */
import { privateTargetsFromEnv } from '../../../fetch/settings.ts';
import type { GuardOptions } from '../../../fetch/ssrf.ts';

export type EngineKind = 'nominatim' | 'photon' | 'pelias';
const ENGINE_KINDS: readonly EngineKind[] = ['nominatim', 'photon', 'pelias'];
export const DEFAULT_ENGINE_TIMEOUT_MS = 3000;

export interface GeocoderSettings {
  /** Base URL of the engine, e.g. `http://nominatim:8080` (a path prefix is kept). */
  url: string;
  kind: EngineKind;
  /** Whole-call budget; on expiry the offline record is returned. */
  timeoutMs?: number;
  /** The SSRF guard's options (ALLOW_PRIVATE_TARGETS); absent: every private address is refused. */
  guard?: GuardOptions;
}

/**
 * Thrown for settings that are present but wrong, so a misconfiguration is loud at start-up.
 *
 * @example geocoderSettings({}, { GEOCODER_URL: 'http://x', GEOCODER_KIND: 'google' }) // throws
 */
export class GeocoderSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GeocoderSettingsError';
  }
}

/**
 * Validates engine settings from an object (`{ url, kind, timeoutMs }`) or, when absent, from the
 * environment. Returns undefined when no engine is configured.
 *
 * @example
 *   geocoderSettings({ geocoder: { url: 'http://127.0.0.1:8080', kind: 'photon' } });
 *   geocoderSettings({}, { GEOCODER_URL: 'http://nominatim:8080', GEOCODER_KIND: 'nominatim' });
 */
export function geocoderSettings(
  settings: Record<string, unknown> = {},
  env: Record<string, string | undefined> = process.env,
): GeocoderSettings | undefined {
  const given = settings.geocoder as Partial<Record<'url' | 'kind' | 'timeoutMs', unknown>> | undefined;
  const url = given?.url ?? env.GEOCODER_URL;
  const kind = given?.kind ?? env.GEOCODER_KIND;
  const timeout = given?.timeoutMs ?? env.GEOCODER_TIMEOUT_MS;
  if (url === undefined || url === '') return undefined;
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) {
    throw new GeocoderSettingsError(`geocoder url must be an http(s) URL, got ${JSON.stringify(url)}`);
  }
  try {
    new URL(url);
  } catch {
    throw new GeocoderSettingsError(`geocoder url is not a valid URL: ${JSON.stringify(url)}`);
  }
  if (typeof kind !== 'string' || !ENGINE_KINDS.includes(kind as EngineKind)) {
    throw new GeocoderSettingsError(`geocoder kind must be one of ${ENGINE_KINDS.join(', ')}, got ${JSON.stringify(kind)}`);
  }
  let timeoutMs = DEFAULT_ENGINE_TIMEOUT_MS;
  if (timeout !== undefined && timeout !== '') {
    timeoutMs = Number(timeout);
    if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 60_000) {
      throw new GeocoderSettingsError(`geocoder timeoutMs must be an integer from 1 to 60000, got ${JSON.stringify(timeout)}`);
    }
  }
  // The lookup settings carry ALLOW_PRIVATE_TARGETS as read at start-up (config/settings.ts); a direct
  // caller without them gets the environment's.
  const fromSettings = typeof settings.allowPrivateTargets === 'boolean' ? { allowPrivateTargets: settings.allowPrivateTargets,
    allowedTargets: Array.isArray(settings.allowedTargets) ? settings.allowedTargets as string[] : [] } : privateTargetsFromEnv(env);
  const guard: GuardOptions = { allowPrivate: fromSettings.allowPrivateTargets, allow: fromSettings.allowedTargets };
  return { url, kind: kind as EngineKind, timeoutMs, guard };
}
