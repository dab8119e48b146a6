/**
 * The fetch layer's public surface: what the engine, the HTTP layer and the webhook sender import.
 *
 * @example
 *   import { Executor, executorSettingsFromEnv, checkUrl, guardedAgent } from '../fetch/index.ts';
 */
export { Executor, type ExecutorOptions, type SessionHandle } from './executor.ts';
export { DEFAULT_SETTINGS, executorSettingsFromEnv, type ExecutorSettings, type ProxyRotation, type ReplayFallback } from './settings.ts';
export { checkUrl, isForbiddenAddress, forbiddenReason, guardedAgent, guardedConnector, guardedLookup, type GuardOptions } from './ssrf.ts';
export { detect, RULES, type DetectRule, type Detection } from './detect.ts';
export { reportLayoutChange, onLayoutChange, setFetchLogger, type FetchEvent, type RequestEvent, type ErrorEvent, type LayoutChangeEvent } from './events.ts';
export { HarRecorder, ReplayTransport, RecordingTransport, loadHar, normalizeUrl, VOLATILE_PARAMS } from './har.ts';
export { BrowserPool, CHROMIUM_FLAGS } from './browser.ts';
