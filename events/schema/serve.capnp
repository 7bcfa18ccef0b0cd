@0xcfd6fd6e767f8b5d;
# `warlog serve`'s Cap'n Proto RPC for warlog's own clients (docs/server.md
# › 3): two-party RPC over TCP. `warlog record --server HOST:PORT` calls it.
#
# Lines, not events, cross the wire inbound: the server parses each in the
# game's context with the same NotationSession as a local recorder (one
# parser, one truth) and appends it through the writer that HTTP's POST
# uses (expected seq, durable commit before the answer, retry answered
# already-recorded). Events go out as their canonical bytes (events/codec.hpp)
# with the server's chain head, so a client can check what it copies.
#
# Evolution, as warlog.capnp's: ordinals are never renumbered or reused;
# new methods and fields take the next ordinal; enumerants only appended.
# Still to come on Table (docs/server.md › 3): follow @2 (a Sink of events
# and annotations), dispute, rule and backup.
#
# Every call on a Session or a Table checks the token given to Gate.login
# again, against the token file as it stands: a revoked token's calls fail
# (an exception naming the token's id) even on capabilities obtained before.
# Refusals are exceptions: "failed" for what a retry cannot cure (a role, a
# limit of size, an unknown game), "overloaded" for the rate limit and a
# stopping server (retry later), "disconnected" when the connection is lost.

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("warlog::capnp_serve");

interface Gate {
  # The bootstrap capability. token: 64 hex digits (warlog serve token issue).
  login @0 (token :Text) -> (session :Session, role :Text);
}

interface Session {
  # The games this token may see (a table's token: its own game only).
  games @0 () -> (games :List(GameSummary));
  # A game to record into and read: a table's token only its own game; a
  # public token is refused (its delayed view is served over HTTP only).
  # nextSeq and where are the recorder's, for the first prompt.
  open @1 (game :UInt64) -> (table :Table, nextSeq :UInt64, where :Text);
}

interface Table {
  # One line of notation (docs/notation.md), as `warlog record` takes it,
  # appended with the expected seq it was first sent with: resend it, the
  # same line with the same seq, when no answer came.
  enter @0 (expectedSeq :UInt64, line :Text) -> (outcome :LineOutcome);
  # Canonical event bytes from fromSeq on (at most 4096 a call: call again
  # from fromSeq + the number given until eventCount), and the chain head
  # (BLAKE2b-256, 32 bytes) of all eventCount events, read in one store
  # transaction with them.
  fetch @1 (fromSeq :UInt64) -> (events :List(Data), eventCount :UInt64, head :Data);
}

struct GameSummary {
  game @0 :UInt64;
  title @1 :Text;
  date @2 :Text;
  events @3 :UInt64;
  players @4 :List(Text);
}

struct LineOutcome {
  status @0 :Status;
  seqs @1 :List(UInt64);   # the seqs recorded (or already recorded)
  nextSeq @2 :UInt64;      # the game's next seq after this line: the next expectedSeq
  where @3 :Text;          # "turn 3 warfare 1": the prompt's place after this line
  text @4 :Text;           # replay::answer_text: what a local `warlog record` prints
  json @5 :Text;           # replay::line_outcome_json: docs/schema/serve-line.schema.json

  enum Status {            # record-line.schema.json's `status`
    ok @0;
    nothing @1;
    refused @2;
    conflict @3;
    needsConfirm @4;
    ended @5;
    command @6;
    alreadyRecorded @7;
  }
}
