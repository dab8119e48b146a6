/**
 * The result filters of a UI task (`filters` of POST /tasks), in the form the hosted system's clients
 * send: `{ key, operator, value }` items, all of which a kept record passes. `exclusiveGroup` and
 * `labelKey` are the hosted dashboard's hints; they are read (two filters of one exclusiveGroup
 * contradict each other) and otherwise ignored. docs/decisions.md "Task result filters" says which
 * operators public clients show and which trawl adds.
 *
 * @example { key: 'rating', operator: 'greater than or equals', value: 4.5 }
 */
import { Type } from './dsl.ts';

/** Operators that compare with no value (`value` is null or absent). */
export const BLANK_OPERATORS = ['is blank', 'is not blank'] as const;
/** Operators on numbers: the record's value and `value` must both read as finite numbers. */
export const NUMBER_OPERATORS = ['greater than', 'greater than or equals', 'less than', 'less than or equals'] as const;
/** Operators on text, case-insensitive; `value` a string, a number or a boolean, or (equals, not equals)
 *  a list of them: equals one of them / none of them. */
export const TEXT_OPERATORS = ['equals', 'not equals', 'contains', 'not contains', 'starts with', 'ends with'] as const;

export const FILTER_OPERATORS = [...TEXT_OPERATORS, ...NUMBER_OPERATORS, ...BLANK_OPERATORS] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

const scalar = Type.Union([Type.String({ maxLength: 1000 }), Type.Number(), Type.Boolean()]);

export const resultFilter = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 200, description: 'A field of the record (`rating`, `website` ...); a dotted path reads inside an object field (`about.Accessibility`).' }),
  operator: Type.Union(FILTER_OPERATORS.map((o) => Type.Literal(o)), { description: 'How the field is compared; text case-insensitively, numbers as numbers. `equals` with a list: equals one of them.' }),
  value: Type.Optional(Type.Union([scalar, Type.Array(scalar, { maxItems: 1000 }), Type.Null()], { description: 'What the field is compared with; null (or absent) for `is blank` / `is not blank`.' })),
  exclusiveGroup: Type.Optional(Type.String({ maxLength: 200, description: 'Filters of one group exclude each other: at most one per group.' })),
  labelKey: Type.Optional(Type.String({ maxLength: 200, description: 'A dashboard label; ignored.' })),
}, { additionalProperties: false });

export const resultFilters = Type.Array(resultFilter, {
  maxItems: 100,
  description: 'Result filters: a place is kept when it passes every one (e.g. `[{"key":"website","operator":"is not blank","value":null},'
    + '{"key":"business_status","operator":"equals","value":["operational"]},{"key":"rating","operator":"greater than or equals","value":4}]`). '
    + 'Places a filter removes are neither stored nor billed.',
});
