/**
 * Writes the n8n node's generated description (integrations/n8n/nodes/Trawl/Trawl.generated.ts) from
 * src/contract/ (scripts/n8n-node.ts). test/n8n-generated.test.ts fails when the committed file differs.
 *
 * Run: npm run n8n:generate
 */
import { writeFileSync } from 'node:fs';
import { N8N_GENERATED, n8nGeneratedSource } from './n8n-node.ts';

writeFileSync(N8N_GENERATED, n8nGeneratedSource());
process.stdout.write(`wrote ${N8N_GENERATED}\n`);
