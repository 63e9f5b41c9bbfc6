/** One row per failed scan and scope (`gift:{id}`, `recipient:{email}`, `ip:{address}`), for the rate limit. */
export interface ScanFailuresTable {
  id: string;
  scope: string;
  created_at: string;
}
