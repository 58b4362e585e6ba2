/**
 * `setups.initialized_at` of the row a first start writes beside the root user it creates: the
 * database is initialised for new-api (a row exists) but its operator has not been through the
 * first-run setup yet (`api/setup/`), which sets the time.
 */
export const setupPending = 0;
