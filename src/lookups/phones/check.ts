/**
 * `/directory-phones`: the submit-time check, in a file of its own so the registry row (which loads the
 * adapter by URL, on the lookup thread) and the adapter both read it without importing each other.
 */

/** Unreadable numbers still get a record (status NOT_A_NUMBER); only an empty query is refused. */
export const checkPhoneQuery = (query: string): string | undefined => (query.trim() === '' ? 'query is empty: expected a phone number' : undefined);
