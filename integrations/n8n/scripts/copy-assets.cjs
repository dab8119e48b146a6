// Copies the icons and codex files next to the compiled nodes and credentials (n8n reads them from dist).
const { cpSync, readdirSync, statSync, mkdirSync } = require('node:fs');
const { join, dirname } = require('node:path');

const root = join(__dirname, '..');
function walk(dir) {
	for (const name of readdirSync(join(root, dir))) {
		const rel = join(dir, name);
		if (statSync(join(root, rel)).isDirectory()) walk(rel);
		else if (/\.(svg|png|json)$/.test(name)) {
			mkdirSync(join(root, 'dist', dirname(rel)), { recursive: true });
			cpSync(join(root, rel), join(root, 'dist', rel));
		}
	}
}
for (const dir of ['nodes', 'credentials']) walk(dir);
