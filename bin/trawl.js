#!/usr/bin/env node
// `npx trawl`: runs the command line from its esbuild bundle (dist/cli/, bin/cli-build.js), which starts
// several times faster than compiling the TypeScript sources through tsx on every call. The bundle is
// rebuilt first whenever a source it was built from changed, so this always runs the current sources.
// TRAWL_FROM_SOURCE=1 runs the sources through tsx instead (also the fallback when building fails).
let entry;
if (process.env.TRAWL_FROM_SOURCE !== '1') {
  try {
    entry = await (await import('./cli-build.js')).freshEntry();
  } catch (e) {
    process.stderr.write(`trawl: could not build dist/cli (${e.message}); running the sources through tsx\n`);
  }
}
if (entry) await import(entry);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
