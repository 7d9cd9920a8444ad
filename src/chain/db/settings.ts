/**
 * Settings: values the node keeps across restarts in the chain database's `meta` table, each
 * under `setting:<key>` (the development clock's offset: src/node/clock.ts).
 */
import type Database from "better-sqlite3";

export class Settings {
  private readonly settingStmt: Database.Statement;
  private readonly saveSettingStmt: Database.Statement;

  constructor(db: Database.Database) {
    this.settingStmt = db.prepare("SELECT value FROM meta WHERE key = ?").pluck();
    this.saveSettingStmt = db.prepare(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    );
  }

  /** A value the node keeps across restarts (in the `meta` table); undefined when unset. */
  setting(key: string): string | undefined {
    return this.settingStmt.get(`setting:${key}`) as string | undefined;
  }

  saveSetting(key: string, value: string): void {
    this.saveSettingStmt.run(`setting:${key}`, value);
  }
}
