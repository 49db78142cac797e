// The one error the cron ledger and its inputs raise for what the user gave, kept apart from
// schedule.ts so that reading the ledger (the UI's inbox count) does not load croner.

/** A job's input was refused; the message says what to write instead. */
export class CronInputError extends Error {}
