/** One row per failed scan and scope (`gift:{id}`, `recipient:{email}`, `ip:{address}`), for the rate limit. */
export interface ScanFailuresTable {
  id: string;
  scope: string;
  created_at: string;
}

/** One scan of a gift and how it ended (the staff console's timeline); goes with its gift. */
export interface ScanEventsTable {
  id: string;
  gift_id: string;
  outcome: string;
  flow: string;
  score: number | null;
  created_at: string;
}
