/** Types of `/delivery`, derived from its declaration (no mirrored interfaces). */
import type { Static } from '@sinclair/typebox';
import type { deliveryRecord } from '../../contract/records/delivery.ts';

export type MenuItemRecord = Static<typeof deliveryRecord>;
