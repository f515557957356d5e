/* cc -O2 -I Sources/CParleyDatabase/include Scripts/vfs-selftest.c Sources/CParleyDatabase/parley_vfs.c -lsqlite3 -lsodium -o /tmp/vfs-selftest
 *
 * Self-test of the encrypting VFS (Sources/CParleyDatabase) against the system SQLite, through
 * the sqlite3 C API directly. Run /tmp/vfs-selftest [directory]; it works in a fresh temporary
 * directory and removes it on success. Also meant to run under
 * `valgrind --error-exitcode=1 /tmp/vfs-selftest`. */

#define _GNU_SOURCE
#include "parley_vfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MARKER "PARLEY-PLAINTEXT-MARKER"
#define ROW_COUNT 10000

static const unsigned char databaseKey[PARLEY_VFS_KEY_BYTES] = {
    0x8a, 0x11, 0x52, 0xe3, 0x04, 0x9d, 0x6f, 0x27, 0xc1, 0x3b, 0x90, 0x5e, 0x72, 0xaf, 0x18, 0x66,
    0x0d, 0xb4, 0x39, 0xce, 0x85, 0x2a, 0xf7, 0x41, 0x9c, 0x63, 0x1e, 0xd0, 0x57, 0xba, 0x2c, 0x08};
static const unsigned char wrongKey[PARLEY_VFS_KEY_BYTES] = {0x01};

static char workDirectory[256];

/* Frames and journal records the VFS found unauthenticated while SQLite recovered (torn by a
 * kill), counted from its sqlite3_log notices. */
static int discardedByRecovery;

static void countRecoveryNotices(void *context, int code, const char *message)
{
    (void)context;
    if (code == SQLITE_NOTICE && strstr(message, "does not authenticate") != NULL)
        discardedByRecovery++;
}

/* Reporting. */

static void fail(const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    printf("FAIL ");
    vprintf(format, arguments);
    printf("\n");
    va_end(arguments);
    exit(1);
}

#define CHECK(condition, ...)                                                                \
    do {                                                                                     \
        if (!(condition)) fail(__VA_ARGS__);                                                 \
    } while (0)

static void pass(const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    printf("ok   ");
    vprintf(format, arguments);
    printf("\n");
    fflush(stdout);
    va_end(arguments);
}

/* Files. */

/* Returns a malloc'd path in the work directory. */
static char *pathIn(const char *name)
{
    char *path = malloc(strlen(workDirectory) + strlen(name) + 2);
    CHECK(path != NULL, "out of memory");
    sprintf(path, "%s/%s", workDirectory, name);
    return path;
}

static char *withSuffix(const char *path, const char *suffix)
{
    static char paths[4][340];
    static int next;
    char *result = paths[next++ % 4];
    snprintf(result, sizeof paths[0], "%s%s", path, suffix);
    return result;
}

static long long fileSize(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 ? (long long)info.st_size : -1;
}

static unsigned char *readWholeFile(const char *path, long long *size)
{
    *size = fileSize(path);
    CHECK(*size >= 0, "cannot stat %s", path);
    unsigned char *bytes = malloc((size_t)*size + 1);
    FILE *stream = fopen(path, "rb");
    CHECK(bytes != NULL && stream != NULL, "cannot read %s", path);
    CHECK(fread(bytes, 1, (size_t)*size, stream) == (size_t)*size, "short read of %s", path);
    fclose(stream);
    return bytes;
}

static int fileContains(const char *path, const char *needle)
{
    long long size;
    unsigned char *bytes = readWholeFile(path, &size);
    int found = memmem(bytes, (size_t)size, needle, strlen(needle)) != NULL;
    free(bytes);
    return found;
}

static void flipByte(const char *path, long long offset)
{
    int descriptor = open(path, O_RDWR);
    unsigned char byte;
    CHECK(descriptor >= 0 && pread(descriptor, &byte, 1, offset) == 1, "cannot read %s", path);
    byte ^= 0x20;
    CHECK(pwrite(descriptor, &byte, 1, offset) == 1, "cannot write %s", path);
    close(descriptor);
}

static unsigned readPageNumberOfFrame(const char *walPath, long long frameOffset)
{
    unsigned char bytes[4];
    int descriptor = open(walPath, O_RDONLY);
    CHECK(descriptor >= 0 && pread(descriptor, bytes, 4, frameOffset) == 4, "cannot read WAL");
    close(descriptor);
    return ((unsigned)bytes[0] << 24) | ((unsigned)bytes[1] << 16) | ((unsigned)bytes[2] << 8) |
           bytes[3];
}

/* Flips a byte in the page image of the last frame SQLite wrote since the WAL last restarted
 * (frames with the WAL header's salts), as a crash tearing that write would. Returns the page
 * size, or 0 when the WAL holds no such frame. */
static long long tearLastWalFrame(const char *walPath)
{
    unsigned char header[32], frameHeader[24];
    int descriptor = open(walPath, O_RDONLY);
    if (descriptor < 0 || pread(descriptor, header, sizeof header, 0) != sizeof header) {
        if (descriptor >= 0) close(descriptor);
        return 0;
    }
    const long long pageSize = ((long long)header[10] << 8) | header[11];
    const long long frameSize = 24 + pageSize, size = fileSize(walPath);
    long long lastFrame = -1;
    for (long long frame = 0; 32 + (frame + 1) * frameSize <= size; frame++) {
        CHECK(pread(descriptor, frameHeader, sizeof frameHeader, 32 + frame * frameSize) == 24,
              "read frame header");
        if (memcmp(frameHeader + 8, header + 16, 8) == 0) lastFrame = frame;
    }
    close(descriptor);
    if (lastFrame < 0) return 0;
    flipByte(walPath, 32 + lastFrame * frameSize + 24 + 100);
    return pageSize;
}

static void removeDatabaseFiles(const char *path)
{
    unlink(path);
    unlink(withSuffix(path, "-wal"));
    unlink(withSuffix(path, "-shm"));
    unlink(withSuffix(path, "-journal"));
}

/* SQL. */

static int openDatabase(const char *path, sqlite3 **db)
{
    int rc = sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI,
                             NULL);
    if (*db != NULL) sqlite3_extended_result_codes(*db, 1);
    if (rc != SQLITE_OK) {
        rc = *db != NULL ? sqlite3_extended_errcode(*db) : rc;
        sqlite3_close(*db);
        *db = NULL;
    }
    return rc;
}

static sqlite3 *mustOpen(const char *path)
{
    sqlite3 *db;
    int rc = openDatabase(path, &db);
    CHECK(rc == SQLITE_OK, "open %s: %s", path, sqlite3_errstr(rc));
    return db;
}

static int execute(sqlite3 *db, const char *sql)
{
    sqlite3_exec(db, sql, NULL, NULL, NULL);
    return sqlite3_extended_errcode(db);
}

static void mustExecute(sqlite3 *db, const char *sql)
{
    char *message = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &message);
    CHECK(rc == SQLITE_OK, "%s: %s", sql, message != NULL ? message : sqlite3_errstr(rc));
}

/* Runs a query returning one integer; returns the extended result code. */
static int queryInteger(sqlite3 *db, const char *sql, long long *value)
{
    sqlite3_stmt *statement = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &statement, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(statement);
        if (rc == SQLITE_ROW) {
            *value = sqlite3_column_int64(statement, 0);
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(statement);
    return rc == SQLITE_OK ? SQLITE_OK : sqlite3_extended_errcode(db);
}

static long long mustQueryInteger(sqlite3 *db, const char *sql)
{
    long long value = 0;
    int rc = queryInteger(db, sql, &value);
    CHECK(rc == SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(db));
    return value;
}

static void mustQueryText(sqlite3 *db, const char *sql, char *out, size_t outSize)
{
    sqlite3_stmt *statement = NULL;
    CHECK(sqlite3_prepare_v2(db, sql, -1, &statement, NULL) == SQLITE_OK, "%s: %s", sql,
          sqlite3_errmsg(db));
    CHECK(sqlite3_step(statement) == SQLITE_ROW, "%s: %s", sql, sqlite3_errmsg(db));
    snprintf(out, outSize, "%s", (const char *)sqlite3_column_text(statement, 0));
    sqlite3_finalize(statement);
}

static void checkIntegrity(sqlite3 *db, const char *what)
{
    char result[256];
    mustQueryText(db, "PRAGMA integrity_check", result, sizeof result);
    CHECK(strcmp(result, "ok") == 0, "integrity_check of %s: %s", what, result);
}

/* Gives a new keyed database its reserved bytes, as the Swift side does right after opening. */
static sqlite3 *openEncrypted(const char *path, const char *journalMode)
{
    sqlite3 *db = mustOpen(path);
    int reserve = PARLEY_VFS_RESERVE;
    CHECK(sqlite3_file_control(db, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve) == SQLITE_OK,
          "reserve bytes");
    CHECK(parley_vfs_is_encrypted(db), "%s is not encrypted", path);
    mustExecute(db, "PRAGMA temp_store = MEMORY");
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA journal_mode = %s", journalMode);
    mustExecute(db, sql);
    return db;
}

static void messageBody(char *out, size_t outSize, long long id)
{
    snprintf(out, outSize, MARKER " %06lld: the quick brown fox jumps over the lazy dog", id);
}

static long long insertMessages(sqlite3 *db, long long firstId, long long count)
{
    sqlite3_stmt *statement = NULL;
    CHECK(sqlite3_prepare_v2(db, "INSERT INTO messages(id, conversation, body) VALUES (?, ?, ?)",
                             -1, &statement, NULL) == SQLITE_OK,
          "prepare insert: %s", sqlite3_errmsg(db));
    long long checksum = 0;
    for (long long id = firstId; id < firstId + count; id++) {
        char body[128];
        messageBody(body, sizeof body, id);
        sqlite3_bind_int64(statement, 1, id);
        sqlite3_bind_int64(statement, 2, id % 37);
        sqlite3_bind_text(statement, 3, body, -1, SQLITE_TRANSIENT);
        CHECK(sqlite3_step(statement) == SQLITE_DONE, "insert %lld: %s", id, sqlite3_errmsg(db));
        sqlite3_reset(statement);
        checksum += id * (long long)strlen(body);
    }
    sqlite3_finalize(statement);
    return checksum;
}

static const char *messagesSchema =
    "CREATE TABLE messages(id INTEGER PRIMARY KEY, conversation INTEGER NOT NULL, body TEXT "
    "NOT NULL);"
    "CREATE INDEX messages_by_conversation ON messages(conversation, body);"
    "CREATE TABLE contacts(id INTEGER PRIMARY KEY, name TEXT NOT NULL);"
    "INSERT INTO contacts(name) VALUES ('" MARKER " alice'), ('" MARKER " bob');";

static const char *messagesChecksumQuery =
    "SELECT sum(id * length(body)) FROM messages NOT INDEXED";

/* Scenarios. */

static void testRegistration(void)
{
    CHECK(parley_vfs_set_key("x.db", databaseKey) == SQLITE_MISUSE, "set_key before register");
    CHECK(parley_vfs_register() == SQLITE_OK, "register");
    CHECK(parley_vfs_register() == SQLITE_OK, "register twice");
    CHECK(strcmp(sqlite3_vfs_find(NULL)->zName, "parley") == 0, "parley is not the default VFS");
    pass("registered \"parley\" over \"%s\" as the default VFS (idempotent)",
         ((sqlite3_vfs *)sqlite3_vfs_find(NULL)->pAppData)->zName);
}

/* (a) and (b): 10,000 rows, some checkpointed, some only in the WAL. */
static long long testWriteAndReadBack(const char *path)
{
    CHECK(parley_vfs_set_key(path, databaseKey) == SQLITE_OK, "set_key");
    sqlite3 *writer = openEncrypted(path, "WAL");
    mustExecute(writer, "PRAGMA wal_autocheckpoint = 0");
    mustExecute(writer, messagesSchema);
    long long checksum = 0;
    for (long long next = 1; next <= ROW_COUNT;) {
        /* One 2,000-row transaction goes through a 5-page cache: SQLite spills pages to the WAL
         * mid-transaction and rewrites frames in place. */
        const int spill = next == 4001;
        const long long count = spill ? 2000 : 500;
        mustExecute(writer, spill ? "PRAGMA cache_size = 5; BEGIN" : "BEGIN");
        checksum += insertMessages(writer, next, count);
        mustExecute(writer, spill ? "COMMIT; PRAGMA cache_size = -2000" : "COMMIT");
        next += count;
        if (next == 2001) mustExecute(writer, "PRAGMA wal_checkpoint(PASSIVE)");
        if (next == 6001) mustExecute(writer, "PRAGMA wal_checkpoint(TRUNCATE)");
    }
    const char *walPath = withSuffix(path, "-wal");
    CHECK(fileSize(walPath) > 0, "nothing left in the WAL");
    CHECK(!fileContains(path, MARKER), "database file contains the plaintext marker");
    CHECK(!fileContains(walPath, MARKER), "WAL contains the plaintext marker");
    CHECK(!fileContains(path, "SQLite format 3"), "database header is in plaintext");
    pass("(a) %d rows written; neither the database (%lld bytes) nor its WAL (%lld bytes, rows "
         "6001.. not checkpointed) contains \"" MARKER "\" or the SQLite header",
         ROW_COUNT, fileSize(path), fileSize(walPath));

    sqlite3 *reader = mustOpen(path);
    CHECK(parley_vfs_is_encrypted(reader), "second connection not encrypted");
    CHECK(mustQueryInteger(reader, "SELECT count(*) FROM messages") == ROW_COUNT, "row count");
    CHECK(mustQueryInteger(reader, messagesChecksumQuery) == checksum, "content checksum");
    CHECK(mustQueryInteger(reader, "SELECT count(*) FROM messages WHERE conversation = 5") ==
              mustQueryInteger(reader, "SELECT count(*) FROM messages NOT INDEXED "
                                       "WHERE conversation = 5"),
          "index disagrees with table");
    sqlite3_close(reader);
    sqlite3_close(writer);
    CHECK(fileSize(walPath) < 0, "WAL not removed at close");

    sqlite3 *db = mustOpen(path);
    CHECK(mustQueryInteger(db, "SELECT count(*) FROM messages") == ROW_COUNT, "count on reopen");
    CHECK(mustQueryInteger(db, messagesChecksumQuery) == checksum, "checksum on reopen");
    char body[128], expected[128];
    mustQueryText(db, "SELECT body FROM messages WHERE id = 7777", body, sizeof body);
    messageBody(expected, sizeof expected, 7777);
    CHECK(strcmp(body, expected) == 0, "row 7777 reads back as \"%s\"", body);
    checkIntegrity(db, "the encrypted database");
    sqlite3_close(db);
    pass("(b) right key reads all %d rows back, from the WAL (second connection) and after "
         "checkpoint (reopen); integrity_check ok",
         ROW_COUNT);
    return checksum;
}

/* (c) A wrong key, and no key at all. */
static void testWrongKey(const char *path)
{
    CHECK(parley_vfs_set_key(path, wrongKey) == SQLITE_OK, "set wrong key");
    sqlite3 *db = NULL;
    int rc = openDatabase(path, &db);
    const char *where = "sqlite3_open_v2";
    if (rc == SQLITE_OK) {
        long long count;
        rc = queryInteger(db, "SELECT count(*) FROM sqlite_schema", &count);
        where = "first query";
        sqlite3_close(db);
    }
    CHECK(rc == SQLITE_NOTADB, "wrong key gave %d (%s), expected SQLITE_NOTADB", rc,
          sqlite3_errstr(rc));
    pass("(c) wrong key: %s fails with SQLITE_NOTADB (%s)", where, sqlite3_errstr(rc));

    CHECK(parley_vfs_clear_key(path) == SQLITE_OK, "clear key");
    db = mustOpen(path);
    CHECK(!parley_vfs_is_encrypted(db), "no key, yet encrypted");
    long long count;
    rc = queryInteger(db, "SELECT count(*) FROM sqlite_schema", &count);
    sqlite3_close(db);
    CHECK(rc == SQLITE_NOTADB, "no key gave %d, expected SQLITE_NOTADB", rc);
    pass("(c) no key: plain SQLite sees no database (SQLITE_NOTADB)");
    CHECK(parley_vfs_set_key(path, databaseKey) == SQLITE_OK, "restore key");
}

static long long pageOwnedBy(sqlite3 *db, const char *table)
{
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT pageno FROM dbstat WHERE name = '%s' AND pagetype = 'leaf' "
             "ORDER BY abs(pageno - (SELECT max(pageno) FROM dbstat) / 2) LIMIT 1",
             table);
    return mustQueryInteger(db, sql);
}

/* (d) One flipped byte in a database page, in page 1, and in a WAL frame. */
static void testTampering(const char *path, long long checksum)
{
    sqlite3 *db = mustOpen(path);
    const long long pageSize = mustQueryInteger(db, "PRAGMA page_size");
    const long long pageCount = mustQueryInteger(db, "PRAGMA page_count");
    const long long victim = pageOwnedBy(db, "messages");
    sqlite3_close(db);

    const long long offset = (victim - 1) * pageSize + 1234;
    flipByte(path, offset);
    db = mustOpen(path);
    long long value = 0;
    int rc = queryInteger(db, messagesChecksumQuery, &value);
    sqlite3_close(db);
    CHECK(rc == SQLITE_IOERR_DATA, "flipped page %lld read with %d, expected SQLITE_IOERR_DATA",
          victim, rc);
    flipByte(path, offset);
    db = mustOpen(path);
    CHECK(mustQueryInteger(db, messagesChecksumQuery) == checksum, "restored page");
    sqlite3_close(db);
    pass("(d) byte %lld of page %lld/%lld flipped: reading it fails with SQLITE_IOERR_DATA; "
         "flipped back it reads again",
         offset % pageSize, victim, pageCount);

    flipByte(path, 50);
    rc = openDatabase(path, &db);
    if (rc == SQLITE_OK) {
        rc = queryInteger(db, "SELECT count(*) FROM messages", &value);
        sqlite3_close(db);
    }
    CHECK(rc == SQLITE_NOTADB, "flipped page 1 gave %d, expected SQLITE_NOTADB", rc);
    flipByte(path, 50);
    pass("(d) byte 50 of page 1 (the header) flipped: SQLITE_NOTADB");

    /* A frame only SQLite's WAL index knows about: the writer stays open, so the reader below
     * does not run recovery and reads the page image from the WAL as a committed frame. */
    sqlite3 *writer = mustOpen(path);
    mustExecute(writer, "PRAGMA wal_autocheckpoint = 0; PRAGMA wal_checkpoint(TRUNCATE)");
    mustExecute(writer, "UPDATE messages SET body = replace(body, 'quick', 'QUICK') WHERE id = 5000");
    const char *walPath = withSuffix(path, "-wal");
    const long long frameSize = 24 + pageSize;
    const long long frames = (fileSize(walPath) - 32) / frameSize;
    CHECK(frames >= 1, "UPDATE wrote no frame");
    for (long long frame = 0; frame < frames; frame++) flipByte(walPath, 32 + frame * frameSize + 24 + 99);
    sqlite3 *reader = mustOpen(path);
    rc = queryInteger(reader, "SELECT length(body) FROM messages WHERE id = 5000", &value);
    sqlite3_close(reader);
    CHECK(rc == SQLITE_IOERR_DATA, "flipped WAL frame read with %d, expected SQLITE_IOERR_DATA",
          rc);
    for (long long frame = 0; frame < frames; frame++) flipByte(walPath, 32 + frame * frameSize + 24 + 99);
    const unsigned framePage = readPageNumberOfFrame(walPath, 32);
    reader = mustOpen(path);
    CHECK(mustQueryInteger(reader, messagesChecksumQuery) == checksum, "restored WAL frame");
    sqlite3_close(reader);
    sqlite3_close(writer);
    pass("(d) one byte flipped in the page image of each of the WAL's %lld frame(s) (first: "
         "page %u): SQLITE_IOERR_DATA; flipped back it reads again",
         frames, framePage);
}

/* (e) A database without a key in the same process stays plain SQLite. */
static void testPlainDatabase(const char *path)
{
    sqlite3 *db = mustOpen(path);
    CHECK(!parley_vfs_is_encrypted(db), "unkeyed database encrypted");
    mustExecute(db, "PRAGMA journal_mode = WAL");
    mustExecute(db, messagesSchema);
    insertMessages(db, 1, 200);
    sqlite3_close(db);
    CHECK(fileContains(path, "SQLite format 3"), "plain database lacks the SQLite header");
    CHECK(fileContains(path, MARKER), "plain database lacks its plaintext");
    db = mustOpen(path);
    CHECK(mustQueryInteger(db, "SELECT count(*) FROM messages") == 200, "plain count");
    checkIntegrity(db, "the plain database");
    sqlite3_close(db);
    pass("(e) unkeyed database in the same process: plain SQLite file, readable, integrity ok");
}

/* The child of a crash round: commits forever, reporting each committed round on `report`.
 * Every transaction inserts 50 rows and bumps `rounds` by one, atomically. */
static void crashChild(const char *uri, const char *journalMode, int report)
{
    sqlite3 *db = openEncrypted(uri, journalMode);
    mustExecute(db, "PRAGMA wal_autocheckpoint = 40; PRAGMA cache_size = 8");
    for (long long round = mustQueryInteger(db, "SELECT n FROM rounds") + 1;; round++) {
        mustExecute(db, "BEGIN");
        mustExecute(db, "UPDATE rounds SET n = n + 1");
        mustExecute(db, "UPDATE messages SET conversation = conversation + 1 WHERE id % 7 = 0");
        long long first = mustQueryInteger(db, "SELECT coalesce(max(id), 0) + 1 FROM messages");
        insertMessages(db, first, 50);
        mustExecute(db, "COMMIT");
        CHECK(write(report, &round, sizeof round) == sizeof round, "report");
    }
}

/* (f) SIGKILL mid-write, then recover. */
static void testCrashRound(const char *path, const char *journalMode, int powersafeOverwrite,
                           int round)
{
    char uri[400];
    snprintf(uri, sizeof uri, "file:%s?psow=%d", path, powersafeOverwrite);
    int channel[2];
    CHECK(pipe(channel) == 0, "pipe");
    pid_t child = fork();
    CHECK(child >= 0, "fork");
    if (child == 0) {
        close(channel[0]);
        crashChild(uri, journalMode, channel[1]);
        _exit(2);
    }
    close(channel[1]);
    long long committed = 0, reported;
    int reports = 0;
    while (reports < 12 && read(channel[0], &reported, sizeof reported) == sizeof reported) {
        committed = reported;
        reports++;
    }
    CHECK(reports == 12, "crash child stopped early");
    struct timespec pause = {0, (long)(rand() % 15) * 1000000L};
    nanosleep(&pause, NULL);
    kill(child, SIGKILL);
    int status;
    waitpid(child, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "child was not killed");
    while (read(channel[0], &reported, sizeof reported) == sizeof reported) committed = reported;
    close(channel[0]);

    const long long walBytes = fileSize(withSuffix(path, "-wal"));
    const long long journalBytes = fileSize(withSuffix(path, "-journal"));
    discardedByRecovery = 0;
    sqlite3 *db = mustOpen(path);
    checkIntegrity(db, "the database after SIGKILL");
    const long long rounds = mustQueryInteger(db, "SELECT n FROM rounds");
    const long long rows = mustQueryInteger(db, "SELECT count(*) FROM messages");
    CHECK(rounds >= committed, "round %lld was committed but only %lld survived", committed,
          rounds);
    CHECK(rows == ROW_COUNT + 50 * rounds, "%lld rows after %lld rounds: not atomic", rows, rounds);
    CHECK(mustQueryInteger(db, "SELECT max(id) FROM messages") == rows, "gap in ids");
    CHECK(mustQueryInteger(db, "SELECT count(DISTINCT conversation - id % 37) FROM messages "
                               "WHERE id % 7 = 0 AND id <= 10000") == 1 &&
              mustQueryInteger(db, "SELECT min(conversation - id % 37) FROM messages "
                                   "WHERE id % 7 = 0 AND id <= 10000") == rounds,
          "an UPDATE was applied to part of the table");
    sqlite3_close(db);
    pass("(f) %s%s crash %d: killed after round %lld; recovered %lld rounds, %lld rows, "
         "integrity ok (left %s of %lld bytes, %d torn %s discarded)",
         journalMode, powersafeOverwrite ? "" : " psow=0", round, committed, rounds, rows,
         walBytes >= 0 ? "a WAL" : "a hot journal", walBytes >= 0 ? walBytes : journalBytes,
         discardedByRecovery, walBytes >= 0 ? "frame(s)" : "record(s)");
}

static void testCrashes(const char *path, const char *journalMode, int crashes)
{
    sqlite3 *db = openEncrypted(path, journalMode);
    mustExecute(db, "CREATE TABLE rounds(n INTEGER NOT NULL); INSERT INTO rounds VALUES (0)");
    mustExecute(db, messagesSchema);
    mustExecute(db, "BEGIN");
    insertMessages(db, 1, ROW_COUNT);
    mustExecute(db, "COMMIT");
    sqlite3_close(db);
    for (int crash = 1; crash <= crashes; crash++)
        testCrashRound(path, journalMode, crash % 2, crash);
    CHECK(!fileContains(path, MARKER), "database contains plaintext after crashes");
}

/* (f) A WAL whose last frame is torn, as a power loss can leave it: a child commits five
 * transactions and exits without closing (so nothing is checkpointed), then the last frame it
 * wrote is damaged. Recovery must end the log before it, losing only that transaction, rather
 * than fail. */
static void testTornWalFrame(const char *path)
{
    CHECK(parley_vfs_set_key(path, databaseKey) == SQLITE_OK, "set_key");
    pid_t child = fork();
    CHECK(child >= 0, "fork");
    if (child == 0) {
        sqlite3 *db = openEncrypted(path, "WAL");
        mustExecute(db, "PRAGMA wal_autocheckpoint = 0;"
                        "CREATE TABLE rounds(n INTEGER NOT NULL); INSERT INTO rounds VALUES (0)");
        mustExecute(db, messagesSchema);
        for (long long round = 1; round <= 5; round++) {
            mustExecute(db, "BEGIN; UPDATE rounds SET n = n + 1");
            insertMessages(db, round * 1000, 200);
            mustExecute(db, "COMMIT");
        }
        _exit(0);
    }
    int status;
    waitpid(child, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "torn-frame child failed");
    const long long pageSize = tearLastWalFrame(withSuffix(path, "-wal"));
    CHECK(pageSize > 0, "no frame to tear");
    discardedByRecovery = 0;
    sqlite3 *db = mustOpen(path);
    checkIntegrity(db, "the database after a torn WAL frame");
    const long long rounds = mustQueryInteger(db, "SELECT n FROM rounds");
    CHECK(rounds == 4, "%lld rounds survived the torn commit frame, expected 4", rounds);
    CHECK(mustQueryInteger(db, "SELECT count(*) FROM messages") == 4 * 200, "rows");
    CHECK(discardedByRecovery == 1, "recovery discarded %d frames", discardedByRecovery);
    sqlite3_close(db);
    pass("(f) torn last WAL frame: recovery ends the log before it (4 of 5 transactions, "
         "integrity ok) instead of failing");
}

/* Rollback journal: page images in the journal are sealed too, and ROLLBACK restores them. */
static void testRollbackJournal(const char *path)
{
    CHECK(parley_vfs_set_key(path, databaseKey) == SQLITE_OK, "set_key");
    sqlite3 *db = openEncrypted(path, "DELETE");
    mustExecute(db, messagesSchema);
    mustExecute(db, "BEGIN");
    const long long checksum = insertMessages(db, 1, 3000);
    mustExecute(db, "COMMIT");
    mustExecute(db, "PRAGMA cache_size = 5; BEGIN; UPDATE messages SET body = 'gone'");
    const char *journalPath = withSuffix(path, "-journal");
    CHECK(fileSize(journalPath) > 3 * 4096, "journal missing or small");
    CHECK(!fileContains(journalPath, MARKER), "journal contains the plaintext marker");
    const long long journalBytes = fileSize(journalPath);
    mustExecute(db, "ROLLBACK");
    CHECK(mustQueryInteger(db, messagesChecksumQuery) == checksum, "ROLLBACK lost data");
    checkIntegrity(db, "the DELETE-mode database after ROLLBACK");
    pass("rollback journal: %lld-byte journal holds no plaintext; ROLLBACK restores every row",
         journalBytes);

    /* VACUUM would copy an 8 KiB-page layout into the file in 4 KiB pages. */
    const int rc = execute(db, "PRAGMA page_size = 8192; VACUUM");
    CHECK(rc == SQLITE_IOERR_WRITE, "page-size change gave %d, expected SQLITE_IOERR_WRITE", rc);
    sqlite3_close(db);
    db = mustOpen(path);
    CHECK(mustQueryInteger(db, "PRAGMA page_size") == 4096, "page size changed");
    CHECK(mustQueryInteger(db, messagesChecksumQuery) == checksum, "failed VACUUM lost data");
    checkIntegrity(db, "the database after the refused page-size change");
    sqlite3_close(db);
    CHECK(!fileContains(path, MARKER), "DELETE-mode database contains the marker");
    pass("PRAGMA page_size = 8192 + VACUUM on an encrypted database: SQLITE_IOERR_WRITE, "
         "database unchanged");
}

static void testPageSizes(void)
{
    static const int pageSizes[] = {1024, 8192, 65536};
    for (size_t i = 0; i < sizeof pageSizes / sizeof pageSizes[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "pages-%d.db", pageSizes[i]);
        char *path = pathIn(name);
        CHECK(parley_vfs_set_key(path, databaseKey) == SQLITE_OK, "set_key");
        sqlite3 *db = mustOpen(path);
        int reserve = PARLEY_VFS_RESERVE;
        sqlite3_file_control(db, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve);
        char sql[64];
        snprintf(sql, sizeof sql, "PRAGMA page_size = %d", pageSizes[i]);
        mustExecute(db, sql);
        mustExecute(db, "PRAGMA journal_mode = WAL");
        mustExecute(db, messagesSchema);
        const long long checksum = insertMessages(db, 1, 1000);
        sqlite3_close(db);
        db = mustOpen(path);
        CHECK(mustQueryInteger(db, "PRAGMA page_size") == pageSizes[i], "page size");
        CHECK(mustQueryInteger(db, messagesChecksumQuery) == checksum, "content");
        checkIntegrity(db, name);
        sqlite3_close(db);
        CHECK(!fileContains(path, MARKER), "%s contains plaintext", name);
        parley_vfs_clear_key(path);
        removeDatabaseFiles(path);
        free(path);
    }
    pass("page sizes 1024, 8192, 65536: page 1 found by trial, content intact, no plaintext");
}

static void testMissingReserve(const char *path)
{
    CHECK(parley_vfs_set_key(path, databaseKey) == SQLITE_OK, "set_key");
    sqlite3 *db = mustOpen(path);
    int rc = execute(db, "PRAGMA journal_mode = WAL; CREATE TABLE secrets(body TEXT);"
                         "INSERT INTO secrets VALUES ('" MARKER "')");
    sqlite3_close(db);
    CHECK(rc == SQLITE_IOERR_WRITE, "write without reserve gave %d, expected SQLITE_IOERR_WRITE",
          rc);
    CHECK(fileSize(withSuffix(path, "-wal")) <= 0 || !fileContains(withSuffix(path, "-wal"), MARKER),
          "plaintext reached the WAL");
    CHECK(!fileContains(path, MARKER), "plaintext reached the database");
    pass("keyed database without the 40 reserved bytes: first write fails with "
         "SQLITE_IOERR_WRITE, nothing written in plaintext");
}

static void testVacuum(const char *path)
{
    sqlite3 *db = mustOpen(path);
    mustExecute(db, "PRAGMA temp_store = MEMORY; DELETE FROM messages WHERE id % 2 = 0; VACUUM");
    int reserve = -1;
    sqlite3_file_control(db, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve);
    CHECK(reserve == PARLEY_VFS_RESERVE, "VACUUM left %d reserved bytes", reserve);
    CHECK(mustQueryInteger(db, "SELECT count(*) FROM messages") == ROW_COUNT / 2, "VACUUM count");
    checkIntegrity(db, "the database after VACUUM");
    sqlite3_close(db);
    CHECK(!fileContains(path, MARKER), "VACUUM wrote plaintext");
    pass("VACUUM (temp_store=MEMORY) keeps 40 reserved bytes and the encryption");
}

static void removeWorkDirectory(void)
{
    DIR *directory = opendir(workDirectory);
    if (directory == NULL) return;
    struct dirent *entry;
    while ((entry = readdir(directory)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        char *path = pathIn(entry->d_name);
        unlink(path);
        free(path);
    }
    closedir(directory);
    rmdir(workDirectory);
}

int main(int argc, char **argv)
{
    sqlite3_config(SQLITE_CONFIG_LOG, countRecoveryNotices, NULL);
    snprintf(workDirectory, sizeof workDirectory, "%s/parley-vfs-XXXXXX",
             argc > 1 ? argv[1] : "/tmp");
    CHECK(mkdtemp(workDirectory) != NULL, "mkdtemp: %s", strerror(errno));
    srand((unsigned)time(NULL));
    printf("SQLite %s, work directory %s\n", sqlite3_libversion(), workDirectory);
    char *messagesPath = pathIn("messages.db");
    char *plainPath = pathIn("plain.db");
    char *crashWalPath = pathIn("crash-wal.db");
    char *crashJournalPath = pathIn("crash-journal.db");
    char *journalPath = pathIn("journal.db");
    char *noReservePath = pathIn("no-reserve.db");
    char *tornPath = pathIn("torn.db");

    testRegistration();
    const long long checksum = testWriteAndReadBack(messagesPath);
    testWrongKey(messagesPath);
    testTampering(messagesPath, checksum);
    testPlainDatabase(plainPath);
    CHECK(parley_vfs_set_key(crashWalPath, databaseKey) == SQLITE_OK, "set_key");
    testCrashes(crashWalPath, "WAL", 6);
    CHECK(parley_vfs_set_key(crashJournalPath, databaseKey) == SQLITE_OK, "set_key");
    testCrashes(crashJournalPath, "DELETE", 3);
    testTornWalFrame(tornPath);
    testRollbackJournal(journalPath);
    testPageSizes();
    testMissingReserve(noReservePath);
    testVacuum(messagesPath);

    char *all[] = {messagesPath, plainPath,     crashWalPath, crashJournalPath,
                   journalPath,  tornPath,      noReservePath};
    for (size_t i = 0; i + 1 < sizeof all / sizeof all[0]; i++) {
        sqlite3 *db = mustOpen(all[i]);
        checkIntegrity(db, all[i]);
        sqlite3_close(db);
    }
    pass("(g) integrity_check ok on every database at the end");

    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        parley_vfs_clear_key(all[i]);
        removeDatabaseFiles(all[i]);
        free(all[i]);
    }
    removeWorkDirectory();
    printf("all checks passed\n");
    return 0;
}
