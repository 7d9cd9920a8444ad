/**
 * A work thread for work-thread.test.ts: each piece of work holds an exclusive lock on the SQLite
 * file `workerData.path` while SQLite counts to `rows` in one statement, native code that
 * stopping the thread does not interrupt. It reads the thread's CPU time first, as a command's
 * time limit does (which keeps the thread's CPU time file open).
 */
import { workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { threadCpuMs } from "../thread-cpu.ts";
import { serveWork } from "../work-thread-port.ts";

const { path } = workerData as { path: string };

serveWork(
  (work: { rows: number }) => {
    threadCpuMs();
    const db = new Database(path);
    db.exec("BEGIN EXCLUSIVE");
    db.prepare(
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT count(*) FROM c",
    ).get(work.rows);
    db.exec("COMMIT");
    db.close();
    return "counted";
  },
  () => {},
);
