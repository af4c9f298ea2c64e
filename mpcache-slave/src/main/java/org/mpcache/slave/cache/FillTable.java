package org.mpcache.slave.cache;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.annotation.concurrent.GuardedBy;
import org.mpcache.slave.store.BlockFill;

/**
 * The fills clients are writing through to this slave, by fill id, with the caller each belongs to
 * and the time each was last written to so that fills a client abandoned (it died, or stopped
 * reading) can be reaped. Fill ids are random 64-bit numbers from a {@link SecureRandom}: knowing
 * one's own ids tells nothing about another caller's.
 *
 * <p>Thread-safe: a concurrent map; callers lock a {@link Session} while they use its fill.
 */
final class FillTable {

  /** One fill, its caller, and when it was last touched; lock it while writing to the fill. */
  static final class Session {
    final BlockFill fill;
    /** The caller that was offered the fill: only it may write, commit or abort it. */
    final String owner;
    /** The slave's own fill of the block if the owner abandons it; null: none. */
    final FillRequest completion;
    @GuardedBy("this")
    long lastTouched;

    Session(BlockFill fill, String owner, FillRequest completion, long now) {
      this.fill = fill;
      this.owner = owner;
      this.completion = completion;
      this.lastTouched = now;
    }
  }

  private final SecureRandom random = new SecureRandom();
  private final Map<Long, Session> sessions = new ConcurrentHashMap<>();

  /** Registers a fill of {@code owner}'s; returns its new, random id. */
  long add(BlockFill fill, String owner, FillRequest completion, long now) {
    Session s = new Session(fill, owner, completion, now);
    while (true) {
      long id = random.nextLong();
      if (sessions.putIfAbsent(id, s) == null) {
        return id;
      }
    }
  }

  Session get(long id) {
    return sessions.get(id);
  }

  /** Removes the session if {@code id} still names it; false when it is already gone. */
  boolean remove(long id, Session s) {
    return sessions.remove(id, s);
  }

  /** Removes and returns the sessions not touched since {@code deadline}. */
  List<Session> removeIdleSince(long deadline) {
    List<Session> out = new ArrayList<>();
    sessions.entrySet().removeIf(e -> {
      synchronized (e.getValue()) {
        if (e.getValue().lastTouched < deadline) {
          out.add(e.getValue());
          return true;
        }
        return false;
      }
    });
    return out;
  }

  int size() {
    return sessions.size();
  }
}
