@0xf4fe437cbd9b800b;
# Annotations kept beside a game's stream in the `annotations` database
# (key: game u64 BE ‖ n u64 BE; value: 32-byte chain hash A(n) ‖ the
# Annotation in Cap'n Proto's canonical form: one segment, no segment table,
# store/include/warlog/store/annotations.hpp).
# It mirrors core/include/warlog/core/annotation.hpp. The wire rules of
# warlog.capnp hold here too: ordinals are never renumbered, reordered or
# reused; new kinds take the next ordinal of the union; enumerants are only
# appended.
#
# Why Cap'n Proto and not a hand-written encoding (as `games` values are):
# an annotation is written once and must read forever while its kinds grow
# (notes, amended citations, co-signers); a schema gives that evolution and
# lets the stock tool decode a value taken from `mdb_dump -s annotations`:
#   tail -c +33 VALUE | capnp convert flat:text events/schema/annotation.capnp Annotation
# Why a file of its own and not structs at the end of warlog.capnp: that file
# is the event stream's contract; annotations are a separate database with a
# separate life, and a file each keeps their ordinals from ever interleaving.

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("warlog::capnp_annotation");

struct Citation {
  kind @0 :Kind;
  text @1 :Text;        # a rule id for kind rule; free text otherwise

  enum Kind {
    rule @0;            # an id from `warlog rules` ("MUS-a.draw")
    text @1;            # anything else: a ruling number, a document, a letter
  }
}

# What the ruling says the audit must report at the disputed event.
struct Expectation {
  ruleId @0 :Text;
  present @1 :Bool = true;   # false: the audit must NOT report ruleId there
}

struct DisputeRaised {
  claim @0 :Text;
  raisedBy @1 :Text;
  citations @2 :List(Citation);
  createdAt @3 :Text;   # as the caller gave it (the CLI: ISO 8601 UTC)
}

# A ruling on the DisputeRaised stored at the same game and seq under n = dispute.
struct DisputeRuled {
  dispute @0 :UInt32;
  status @1 :Status;
  ruling @2 :Text;
  ruledBy @3 :Text;
  citations @4 :List(Citation);
  expectation @5 :Expectation;   # absent: the ruling states no expected finding
  ruledAt @6 :Text;
  judgeSignature @7 :RulingSignature;  # absent: the ruling is not signed

  enum Status {
    open @0;
    resolved @1;
  }
}

# A judge's Ed25519 signature over the ruling that holds it (the signed
# message: store/include/warlog/store/signature.hpp); the signer is ruledBy.
struct RulingSignature {
  signedAtMs @0 :Int64;
  keyId @1 :Data;       # 8 bytes: BLAKE2b-256(publicKey), first 8 bytes
  publicKey @2 :Data;   # 32 bytes
  signature @3 :Data;   # 64 bytes
}

# Ed25519 over "warlog.game-signature.2" ‖ u16 LE len ‖ signer ‖ i64 LE
# signedAtMs ‖ keyId ‖ identity ‖ u64 LE eventCount ‖ head ‖ u64 LE
# annotationCount ‖ annotationHead (store/include/warlog/store/signature.hpp).
# Concerns seq = eventCount - 1.
struct GameSigned {
  signer @0 :Text;
  publicKey @1 :Data;   # 32 bytes
  eventCount @2 :UInt64;
  head @3 :Data;        # 32 bytes: the event chain's head over eventCount events
  signature @4 :Data;   # 64 bytes
  obsoleteSignedAt @5 :Text;   # format 1 only (ISO 8601, not signed); never written now
  signedAtMs @6 :Int64;        # ms since the Unix epoch, UTC; signed
  keyId @7 :Data;              # 8 bytes: BLAKE2b-256(publicKey), first 8 bytes
  identity @8 :Data;           # 32 bytes: the game's identity
  annotationCount @9 :UInt64;  # annotations before this one
  annotationHead @10 :Data;    # 32 bytes: the annotation chain's head before this one
}

# Appended by `warlog migrate` to each game it converted from store format 1
# (docs/architecture.md › "Store format 2" › 7), at the game's last event.
struct Migrated {
  format1Head @0 :Data;          # 32 bytes: format 1's chain hash of the last event
  eventCount @1 :UInt64;
  signerKeys @2 :List(Data);     # 32-byte Ed25519 keys of the format-1 signatures valid at format1Head
  signers @3 :List(Text);        # their self-declared names, same order
  migratedAt @4 :Int64;          # ms since the Unix epoch UTC
}

struct Annotation {
  union {
    disputeRaised @0 :DisputeRaised;
    disputeRuled @1 :DisputeRuled;
    gameSigned @2 :GameSigned;
    migrated @3 :Migrated;
    # Next free ordinal: @5 (seq below is @4).
  }
  seq @4 :UInt64;        # the event the annotation concerns
}
