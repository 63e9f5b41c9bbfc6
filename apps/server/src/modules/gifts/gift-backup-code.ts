import type { Executor } from '../../db/database.ts';
import type { BackupCodes } from '../../lib/backup-codes.ts';
import * as gifts from './gifts.repository.ts';
import type { Gift } from './gifts.table.ts';

/**
 * A paid gift's backup code for its sender (decision 039); null before payment. A gift paid before codes existed,
 * or whose code was sealed under another SESSION_SECRET, gets a new one here, once (the first writer wins).
 */
export async function backupCodeOf(db: Executor, codes: BackupCodes, gift: Gift): Promise<string | null> {
  if (gift.status !== 'active') return null;
  const current = codes.open(gift.id, gift.backup_code);
  if (current) return current;
  const fresh = codes.fresh(gift.id);
  if (await gifts.setBackupCode(db, gift.id, fresh.sealed, gift.backup_code === null)) return fresh.code;
  // Another request made it meanwhile: that one stands.
  const again = await gifts.findGift(db, gift.id);
  return again ? codes.open(gift.id, again.backup_code) : null;
}

/** A new code for the gift (My Gifts' "Make a new code"): the old one stops working at once. */
export async function renewBackupCode(db: Executor, codes: BackupCodes, gift: Gift): Promise<string | null> {
  if (gift.status !== 'active') return null;
  const fresh = codes.fresh(gift.id);
  return (await gifts.setBackupCode(db, gift.id, fresh.sealed)) ? fresh.code : null;
}
