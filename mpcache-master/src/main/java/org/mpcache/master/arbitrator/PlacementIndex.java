package org.mpcache.master.arbitrator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.ObjLongConsumer;
import java.util.function.ToLongFunction;
import org.mpcache.common.BlockKey;

/**
 * The master's one record of where cached blocks are: per block copy (one block on one slave) its
 * dataset, size and state; per dataset how many of its blocks are cached somewhere, how many bytes
 * it holds in all and on each slave; per slave how many copies it stores, and the blocks of evicted
 * datasets it has not been told to drop yet (Algorithm 1's To_Del) with their bytes. Beside it
 * are the master's {@link DatasetRecords}, one record per dataset for the policy and operators.
 * The Replace Arbitrator owns it; the cache policy plans against it and changes it through the package's
 * narrow methods as it handles the events the arbitrator passes on; the slave registry and the
 * status catalog read its public views.
 *
 * <p>A copy's states: <em>filling</em> (admitted, the slave is storing it), <em>stored</em>
 * (reported cached), and either of them <em>doomed</em> (its dataset was evicted: a stored copy is
 * queued for eviction on its slave, a filling one is queued when reported cached). A copy leaves
 * the index when its slave reports it removed or the slave is lost. Live (not doomed) copies
 * count toward their dataset's tallies; doomed ones still count as what their slave holds. A stored
 * copy nobody admitted (a <em>stray</em>) has no dataset. A block belongs to the dataset it was
 * first admitted for.
 *
 * <p>Layout, for the master's memory (docs/simulator.md reports the measured bytes per cached
 * block): one {@link Copy} object per block copy, holding the block key's fields inline and
 * threaded on two intrusive lists, its hash bucket and its dataset's block list, so a cached block
 * costs one object and one table slot; slaves are numbered once and each dataset keeps its bytes per
 * slave in two small sorted arrays, so that "does this dataset free room on that slave" is
 * O(log slaves) while choosing victims. The per-slave views ({@link #storedOn}) scan the table:
 * they serve operators' actions, not the request path. The datasets on each slave are kept only
 * once a policy asks for them ({@link #forEachDatasetOn}: the dataset baselines, whose victims
 * are the datasets on the requesting slave), so mpCache's policy does not pay for them.
 *
 * <p>Not thread-safe: the Replace Arbitrator guards it with its lock.
 */
public final class PlacementIndex {

  /** One block on one slave, filling or stored, maybe doomed. */
  private static final class Copy {
    final String blockPoolId;
    final long blockId;
    final long generationStamp;
    final long bytes;
    final int slave;
    /** The dataset it was admitted for (kept once doomed, for attribution); null for a stray. */
    final Held dataset;
    boolean filling = true;
    boolean doomed;
    /** In its slave's To_Del list; counted there with {@link #bytes} when sized, else with 0. */
    boolean queued;
    boolean queuedSized;
    Copy prevInDataset;
    Copy nextInDataset;
    Copy nextInBucket;

    Copy(BlockKey key, long bytes, int slave, Held dataset) {
      this.blockPoolId = key.getBlockPoolId();
      this.blockId = key.getBlockId();
      this.generationStamp = key.getGenerationStamp();
      this.bytes = bytes;
      this.slave = slave;
      this.dataset = dataset;
    }

    boolean is(BlockKey key) {
      return blockId == key.getBlockId() && generationStamp == key.getGenerationStamp()
          && blockPoolId.equals(key.getBlockPoolId());
    }

    boolean sameBlock(Copy o) {
      return blockId == o.blockId && generationStamp == o.generationStamp
          && blockPoolId.equals(o.blockPoolId);
    }

    /** Counts toward its dataset's tallies and list. */
    boolean live() {
      return !doomed && dataset != null;
    }

    BlockKey key() {
      return new BlockKey(blockPoolId, blockId, generationStamp);
    }

    /** The bytes its To_Del entry counts. */
    long queuedBytes() {
      return queuedSized ? bytes : 0;
    }
  }

  /** One dataset with at least one live block copy. */
  static final class Held {
    final String id;
    /** Forgotten: its dataset holds no live copy (a new one is made if it gets one again). */
    boolean gone;
    /** The policy's record of the dataset as last found: current while tracked. */
    DatasetRecord record;
    Copy head;
    Copy tail;
    /** Distinct blocks with at least one live stored copy. */
    int cachedBlocks;
    /** Bytes of live stored copies over every slave. */
    long storedBytes;
    /**
     * Bytes of stored copies on each slave: slave numbers ascending in {@code slaveKeys[0..n)},
     * their bytes beside them (kept when they fall to 0, dropped when the arrays must grow), so
     * an entry costs about 12 bytes, not a map node's 40 or more.
     */
    int[] slaveKeys = new int[2];
    long[] slaveBytes = new long[2];
    int slaveEntries;
    /**
     * Beside each entry with bytes above 0, where the dataset is in that slave's
     * {@link HeldList}; null until the index keeps those lists ({@code datasetsOn}).
     */
    int[] slavePos;

    Held(String id) {
      this.id = id;
    }

    long bytesOn(int slave) {
      int i = Arrays.binarySearch(slaveKeys, 0, slaveEntries, slave);
      return i >= 0 ? slaveBytes[i] : 0;
    }

    /** Adds to the bytes stored on a slave; returns the slave's entry. */
    int addStored(int slave, long delta) {
      storedBytes += delta;
      int i = Arrays.binarySearch(slaveKeys, 0, slaveEntries, slave);
      if (i >= 0) {
        slaveBytes[i] += delta;
        return i;
      }
      if (slaveEntries == slaveKeys.length) {
        compact();
        i = Arrays.binarySearch(slaveKeys, 0, slaveEntries, slave);
        // Grown unless compacting freed a quarter: an array left nearly full would be compacted
        // again within a few new slaves, a scan each time (a dataset the block baselines keep
        // spread over hundreds of slaves, its blocks coming and going one by one).
        if (slaveEntries > slaveKeys.length * 3 / 4) {
          int size = slaveEntries * 3 / 2 + 1;
          slaveKeys = Arrays.copyOf(slaveKeys, size);
          slaveBytes = Arrays.copyOf(slaveBytes, size);
          if (slavePos != null) {
            slavePos = Arrays.copyOf(slavePos, size);
          }
        }
      }
      int at = -(i + 1);
      System.arraycopy(slaveKeys, at, slaveKeys, at + 1, slaveEntries - at);
      System.arraycopy(slaveBytes, at, slaveBytes, at + 1, slaveEntries - at);
      if (slavePos != null) {
        System.arraycopy(slavePos, at, slavePos, at + 1, slaveEntries - at);
      }
      slaveKeys[at] = slave;
      slaveBytes[at] = delta;
      slaveEntries++;
      return at;
    }

    /** Drops the slaves whose bytes fell back to 0. */
    private void compact() {
      int n = 0;
      for (int i = 0; i < slaveEntries; i++) {
        if (slaveBytes[i] != 0) {
          slaveKeys[n] = slaveKeys[i];
          slaveBytes[n] = slaveBytes[i];
          if (slavePos != null) {
            slavePos[n] = slavePos[i];
          }
          n++;
        }
      }
      slaveEntries = n;
    }
  }

  /**
   * A slave's To_Del: its queued copies in the order queued, each counted with its bytes (0 when
   * unknown). The copies are listed themselves, not keyed by block: queuing, dropping and taking
   * an entry hashes nothing, where a map from block to bytes cost a table probe and an entry at
   * each (half of a dataset eviction's time on 600 slaves). A copy the slave reports removed
   * leaves the list lazily (its {@link Copy#queued} flag clears; the list is dropped when none is
   * left, or taken). A queued copy replaced by a new one of the same block (the block wanted
   * again, {@link #fill}) stays in the list as {@code detached}, found by key until its slave
   * reports the block removed or the new copy is queued in its place.
   */
  private static final class Pending {
    final List<Copy> copies = new ArrayList<>();
    /** Copies listed and still queued. */
    int queued;
    long bytes;
    /** Queued copies no longer in the table, by block; null when none (as a rule). */
    Map<BlockKey, Copy> detached;
  }

  /**
   * The datasets with stored bytes on one slave, in no order: an array, each dataset knowing its
   * place ({@link Held#slavePos}), so joining is an append and leaving moves the last one into
   * the gap. A hash set of them cost a table probe and a node at each, and a miss of the dataset
   * baselines stores a block of a dataset new to the slave as a rule.
   */
  private static final class HeldList {
    Held[] items = new Held[4];
    int size;

    /** Adds a dataset whose entry {@code entry} for this slave rose above 0 bytes. */
    void add(Held d, int entry) {
      if (d.slavePos == null) {
        d.slavePos = new int[d.slaveKeys.length];
      }
      if (size == items.length) {
        items = Arrays.copyOf(items, size * 2);
      }
      d.slavePos[entry] = size;
      items[size++] = d;
    }

    /** Takes out the dataset at {@code pos}; the last one takes its place. */
    void remove(int pos, int slave) {
      Held last = items[--size];
      items[size] = null;
      if (pos != size) {
        items[pos] = last;
        last.slavePos[Arrays.binarySearch(last.slaveKeys, 0, last.slaveEntries, slave)] = pos;
      }
    }
  }

  /** What a visitor of a dataset's copies is told of each. */
  @FunctionalInterface
  public interface CopyVisitor {
    void copy(String slaveId, BlockKey block, long bytes, boolean stored);
  }

  private Copy[] table = new Copy[1 << 10];
  private int copies;
  private final Map<String, Held> datasets = new HashMap<>();
  private final DatasetRecords records = new DatasetRecords(this);
  private final Map<String, Integer> slaveIndex = new HashMap<>();
  private final List<String> slaveNames = new ArrayList<>();
  /** Stored copies (live, doomed or stray) per slave number. */
  private int[] storedPerSlave = new int[8];
  private final Map<String, Pending> toDel = new HashMap<>();
  /** The same To_Del lists by slave number, null for none: found without hashing the id. */
  private Pending[] pendingOf = new Pending[8];
  private long pendingBytes;
  /**
   * Per slave number, the datasets with stored bytes there; null until {@link #forEachDatasetOn}
   * is first asked (by the dataset baselines), as it costs an array slot and a
   * position per dataset and slave.
   */
  private List<HeldList> datasetsOn;
  private static final HeldList NO_DATASETS = new HeldList();

  /*
   * The last slave, dataset and copy looked up, kept to answer the next lookup of the same one
   * without hashing: a miss asks the index about the same slave, dataset and block several times
   * (the policy's plan, the fill, the report that it is stored), and each probe of a table
   * reaches memory out of the processor's caches on a cluster of hundreds of slaves. Slaves are
   * never renumbered; a dataset or copy leaving the tables clears its memo.
   */
  private String lastSlaveId;
  private int lastSlave = -1;
  private Held lastHeld;
  private Copy lastCopy;

  private int slave(String slaveId) {
    int known = knownSlave(slaveId);
    if (known >= 0) {
      return known;
    }
    int i = slaveNames.size();
    slaveIndex.put(slaveId, i);
    slaveNames.add(slaveId);
    if (i == storedPerSlave.length) {
      storedPerSlave = Arrays.copyOf(storedPerSlave, i * 2);
      pendingOf = Arrays.copyOf(pendingOf, i * 2);
    }
    lastSlaveId = slaveId;
    lastSlave = i;
    return i;
  }

  /** A slave's number, or -1 when it never held a copy. */
  private int knownSlave(String slaveId) {
    if (slaveId.equals(lastSlaveId)) {
      return lastSlave;
    }
    Integer i = slaveIndex.get(slaveId);
    if (i == null) {
      return -1;
    }
    lastSlaveId = slaveId;
    lastSlave = i;
    return i;
  }

  /** The dataset's tallies, or null when it holds no live copy. */
  private Held held(String datasetId) {
    Held d = lastHeld;
    if (d != null && d.id.equals(datasetId)) {
      return d;
    }
    d = datasets.get(datasetId);
    if (d != null) {
      lastHeld = d;
    }
    return d;
  }

  /** Forgets a dataset's tallies: it holds no live copy now. */
  private void forget(Held d) {
    datasets.remove(d.id);
    d.gone = true;
    if (lastHeld == d) {
      lastHeld = null;
    }
  }

  /** The bucket of a block: {@link BlockKey#hashCode()}'s value, spread. */
  private int bucket(long blockId, long generationStamp) {
    int h = Long.hashCode(blockId) * 31 + Long.hashCode(generationStamp);
    return (h ^ (h >>> 16)) & (table.length - 1);
  }

  private int bucket(BlockKey key) {
    return bucket(key.getBlockId(), key.getGenerationStamp());
  }

  private void removeFromBucket(Copy c) {
    if (lastCopy == c) {
      lastCopy = null;
    }
    int b = bucket(c.blockId, c.generationStamp);
    if (table[b] == c) {
      table[b] = c.nextInBucket;
    } else {
      Copy p = table[b];
      while (p.nextInBucket != c) {
        p = p.nextInBucket;
      }
      p.nextInBucket = c.nextInBucket;
    }
    copies--;
    if (!c.filling) {
      storedPerSlave[c.slave]--;
    }
  }

  /**
   * A live copy of a block on any slave, or null. Every live copy of a block is of the same
   * dataset (a copy filled beside a live one joins that one's dataset), which is all callers ask.
   */
  private Copy liveCopy(BlockKey key) {
    Copy last = lastCopy;
    if (last != null && last.live() && last.is(key)) {
      return last;
    }
    for (Copy c = table[bucket(key)]; c != null; c = c.nextInBucket) {
      if (c.live() && c.is(key)) {
        return c;
      }
    }
    return null;
  }

  private Copy copyOn(BlockKey key, int slave) {
    Copy last = lastCopy;
    if (last != null && last.slave == slave && last.is(key)) {
      return last;
    }
    for (Copy c = table[bucket(key)]; c != null; c = c.nextInBucket) {
      if (c.slave == slave && c.is(key)) {
        lastCopy = c;
        return c;
      }
    }
    return null;
  }

  private Copy copyOn(BlockKey key, String slaveId) {
    int s = knownSlave(slaveId);
    return s < 0 ? null : copyOn(key, s);
  }

  /** Whether another live copy of the same block is stored on some slave. */
  private boolean storedElsewhere(Copy copy) {
    for (Copy c = table[bucket(copy.blockId, copy.generationStamp)]; c != null;
        c = c.nextInBucket) {
      if (c != copy && c.live() && !c.filling && c.sameBlock(copy)) {
        return true;
      }
    }
    return false;
  }

  private void link(Copy c, BlockKey key) {
    if (copies + 1 > table.length) {
      Copy[] old = table;
      table = new Copy[old.length * 2];
      for (Copy head : old) {
        for (Copy x = head; x != null; ) {
          Copy next = x.nextInBucket;
          int b = bucket(x.blockId, x.generationStamp);
          x.nextInBucket = table[b];
          table[b] = x;
          x = next;
        }
      }
    }
    int b = bucket(key);
    c.nextInBucket = table[b];
    table[b] = c;
    copies++;
    if (!c.filling) {
      storedPerSlave[c.slave]++;
    }
    Held d = c.dataset;
    if (d == null) {
      return;
    }
    c.prevInDataset = d.tail;
    if (d.tail == null) {
      d.head = c;
    } else {
      d.tail.nextInDataset = c;
    }
    d.tail = c;
  }

  /**
   * Takes a copy out of the table and, when live, out of its dataset's list and tallies; forgets
   * the dataset when it was its last live copy.
   */
  private void unlink(Copy c) {
    removeFromBucket(c);
    if (!c.live()) {
      return;
    }
    Held d = c.dataset;
    if (c.prevInDataset == null) {
      d.head = c.nextInDataset;
    } else {
      c.prevInDataset.nextInDataset = c.nextInDataset;
    }
    if (c.nextInDataset == null) {
      d.tail = c.prevInDataset;
    } else {
      c.nextInDataset.prevInDataset = c.prevInDataset;
    }
    if (!c.filling) {
      addStored(d, c.slave, -c.bytes);
      if (!storedElsewhere(c)) {
        d.cachedBlocks--;
      }
    }
    if (d.head == null) {
      forget(d);
    }
  }

  /** Adds to a dataset's stored bytes on a slave, keeping {@link #datasetsOn} when kept. */
  private void addStored(Held d, int slave, long delta) {
    if (datasetsOn == null) {
      d.addStored(slave, delta);
      return;
    }
    int i = d.addStored(slave, delta);
    long after = d.slaveBytes[i];
    long before = after - delta;
    if (before <= 0 && after > 0) {
      datasetsOn(slave).add(d, i);
    } else if (before > 0 && after <= 0) {
      datasetsOn(slave).remove(d.slavePos[i], slave);
    }
  }

  private HeldList datasetsOn(int slave) {
    while (datasetsOn.size() <= slave) {
      datasetsOn.add(new HeldList());
    }
    return datasetsOn.get(slave);
  }

  /**
   * Visits every dataset with stored bytes on a slave ({@link #bytesOn} above 0), in no order.
   * The first call starts keeping these per slave, from then on as copies come and go: a cost
   * in memory per dataset and slave that only the policies asking for it pay.
   */
  void forEachDatasetOn(String slaveId, Consumer<String> visitor) {
    HeldList on = datasetsOn(slaveId);
    for (int i = 0; i < on.size; i++) {
      visitor.accept(on.items[i].id);
    }
  }

  /** What a visitor of the datasets on a slave is told of each. */
  @FunctionalInterface
  interface HeldVisitor {
    /**
     * @param record the policy's record of the dataset, or null when it tracks none
     * @param cachedBlocks the dataset's blocks cached on some slave
     */
    void held(DatasetRecord record, int cachedBlocks);
  }

  /**
   * Visits every dataset with stored bytes on a slave, as {@link #forEachDatasetOn} does, with
   * the policy's record of it and its cached blocks: how the dataset baselines list their victim
   * candidates at a miss, where looking each up by id was two hash probes per candidate.
   */
  void forEachTrackedOn(String slaveId, HeldVisitor visitor) {
    HeldList on = datasetsOn(slaveId);
    for (int i = 0; i < on.size; i++) {
      Held d = on.items[i];
      DatasetRecord r = d.record;
      // A record that is tracked is the one the records map holds: an untracked one is never
      // tracked again once out of the map, and one in it is the one track() returns.
      if (r == null || !r.tracked) {
        r = records.tracked(d.id);
        d.record = r;
      }
      visitor.held(r, d.cachedBlocks);
    }
  }

  private HeldList datasetsOn(String slaveId) {
    if (datasetsOn == null) {
      datasetsOn = new ArrayList<>();
      for (Held d : datasets.values()) {
        for (int i = 0; i < d.slaveEntries; i++) {
          if (d.slaveBytes[i] > 0) {
            datasetsOn(d.slaveKeys[i]).add(d, i);
          }
        }
      }
    }
    int s = knownSlave(slaveId);
    return s >= 0 && s < datasetsOn.size() ? datasetsOn.get(s) : NO_DATASETS;
  }


  /**
   * Queues a copy in the table for eviction on its slave, counted with its bytes when
   * {@code sized}, else with 0; a copy queued already (or a detached one of its block) keeps its
   * place in the list and is counted anew.
   */
  private void queue(Copy c, boolean sized) {
    Pending p = pendingOf[c.slave];
    if (p == null) {
      p = new Pending();
      pendingOf[c.slave] = p;
      toDel.put(slaveNames.get(c.slave), p);
    }
    long old = 0;
    if (c.queued) {
      old = c.queuedBytes();
    } else {
      Copy before = p.detached == null ? null : p.detached.remove(c.key());
      if (before != null) {
        old = before.queuedBytes();
        before.queued = false;
        p.copies.set(p.copies.indexOf(before), c);
      } else {
        p.copies.add(c);
        p.queued++;
      }
      c.queued = true;
    }
    c.queuedSized = sized;
    long delta = c.queuedBytes() - old;
    p.bytes += delta;
    pendingBytes += delta;
  }

  /** Takes a copy out of its slave's To_Del (it is listed still, not queued). */
  private void dequeue(Pending p, Copy c) {
    c.queued = false;
    p.queued--;
    p.bytes -= c.queuedBytes();
    pendingBytes -= c.queuedBytes();
  }

  /**
   * A slave starts filling a block of a dataset (no-op when it already holds or fills it; a doomed
   * copy there is replaced: the block is wanted again).
   */
  void fill(String datasetId, BlockKey block, long bytes, String slaveId) {
    int s = slave(slaveId);
    Copy here = copyOn(block, s);
    if (here != null) {
      if (!here.doomed) {
        return;
      }
      if (here.queued) {
        Pending p = pendingOf[s];
        if (p.detached == null) {
          p.detached = new HashMap<>();
        }
        p.detached.put(block, here);
      }
      removeFromBucket(here);
    }
    Copy other = liveCopy(block);
    Held d = other != null ? other.dataset : held(datasetId);
    if (d == null) {
      d = new Held(datasetId);
      datasets.put(datasetId, d);
      lastHeld = d;
    }
    Copy c = new Copy(block, bytes, s, d);
    link(c, block);
    // Reported stored next, as a rule: the report finds it without a probe.
    lastCopy = c;
  }

  /** The dataset a live block copy belongs to, or null. */
  String datasetOf(BlockKey block) {
    Copy c = liveCopy(block);
    return c == null ? null : c.dataset.id;
  }

  /** The master's one record per dataset, kept beside where its blocks are. */
  public DatasetRecords records() {
    return records;
  }

  /** Whether any block of the dataset is cached or being filled (and not doomed). */
  public boolean holds(String datasetId) {
    return held(datasetId) != null;
  }

  /** The dataset's blocks cached on at least one slave. */
  public int cachedBlocks(String datasetId) {
    Held d = held(datasetId);
    return d == null ? 0 : d.cachedBlocks;
  }

  /**
   * The dataset's tallies, through the record's reference to them when still current: the
   * victim search asks this of dataset after dataset, a cold hash probe each by id.
   */
  private Held held(DatasetRecord r) {
    Held d = r.held;
    if (d == null || d.gone) {
      d = held(r.id);
      r.held = d;
    }
    return d;
  }

  /** Whether a dataset holds any live copy, as {@link #holds(String)}. */
  boolean holds(DatasetRecord r) {
    return held(r) != null;
  }

  /** A dataset's blocks cached on some slave, as {@link #cachedBlocks(String)}. */
  int cachedBlocks(DatasetRecord r) {
    Held d = held(r);
    return d == null ? 0 : d.cachedBlocks;
  }

  /** The bytes of a dataset's blocks cached on a slave, as {@link #bytesOn(String, String)}. */
  long bytesOn(DatasetRecord r, String slaveId) {
    return bytesOn(held(r), slaveId);
  }

  /** The bytes of a dataset's stored copies, as {@link #bytesHeld(String)}. */
  long bytesHeld(DatasetRecord r) {
    Held d = held(r);
    return d == null ? 0 : d.storedBytes;
  }

  /** The bytes of the dataset's blocks cached on a slave. O(log slaves). */
  long bytesOn(String datasetId, String slaveId) {
    return bytesOn(held(datasetId), slaveId);
  }

  private long bytesOn(Held d, String slaveId) {
    if (d == null) {
      return 0;
    }
    int s = knownSlave(slaveId);
    return s < 0 ? 0 : d.bytesOn(s);
  }

  /** Visits every dataset holding copies with the bytes of its stored copies, in no order. */
  void forEachHeld(ObjLongConsumer<String> visitor) {
    for (Held d : datasets.values()) {
      visitor.accept(d.id, d.storedBytes);
    }
  }

  /** The bytes of the dataset's stored copies, over every slave. O(1). */
  long bytesHeld(String datasetId) {
    Held d = held(datasetId);
    return d == null ? 0 : d.storedBytes;
  }

  /** What {@link #cached} found. */
  enum Stored {
    /** A live copy was filling and is stored now. */
    NEWLY_STORED,
    /** Nothing changed: the copy was stored already, or it was doomed (now queued). */
    UNCHANGED,
    /** Nobody admitted the block there: it is recorded as a stray copy. */
    STRAY
  }

  /**
   * A slave reports a block cached. A doomed copy is queued for eviction (its bytes counted as 0,
   * as for any block whose size the policy did not plan with); an untracked one is recorded as a
   * stray, which the policy keeps or queues ({@link #evictStray}).
   */
  Stored cached(String slaveId, BlockKey block) {
    int s = slave(slaveId);
    Copy c = copyOn(block, s);
    if (c == null) {
      Copy stray = new Copy(block, 0, s, null);
      stray.filling = false;
      link(stray, block);
      return Stored.STRAY;
    }
    if (!c.filling) {
      return Stored.UNCHANGED;
    }
    storedPerSlave[s]++;
    c.filling = false;
    if (c.doomed) {
      queue(c, false);
      return Stored.UNCHANGED;
    }
    addStored(c.dataset, s, c.bytes);
    if (!storedElsewhere(c)) {
      c.dataset.cachedBlocks++;
    }
    return Stored.NEWLY_STORED;
  }

  /** Dooms a stray copy: it is queued for eviction on its slave. */
  void evictStray(String slaveId, BlockKey block) {
    Copy c = copyOn(block, slaveId);
    if (c != null && c.dataset == null && !c.doomed) {
      c.doomed = true;
      queue(c, false);
    }
  }

  /**
   * A slave no longer holds a block (nor needs to be told to drop it).
   *
   * @return the block's dataset when a live copy was tracked on that slave, else null
   */
  String removed(String slaveId, BlockKey block) {
    int s = knownSlave(slaveId);
    if (s < 0) {
      return null;
    }
    Copy c = copyOn(block, s);
    Pending p = pendingOf[s];
    if (p != null) {
      Copy q = c != null && c.queued ? c
          : p.detached == null ? null : p.detached.remove(block);
      if (q != null) {
        dequeue(p, q);
      }
      if (p.queued == 0) {
        toDel.remove(slaveId);
        pendingOf[s] = null;
      }
    }
    if (c == null) {
      return null;
    }
    boolean live = c.live();
    unlink(c);
    return live ? c.dataset.id : null;
  }

  /**
   * A slave is gone: its pending evictions and every block it held are forgotten.
   *
   * @return the datasets that had live blocks on it, in no particular order
   */
  Set<String> slaveLost(String slaveId) {
    Set<String> affected = new HashSet<>();
    int s = knownSlave(slaveId);
    if (s < 0) {
      return affected;
    }
    Pending p = toDel.remove(slaveId);
    pendingOf[s] = null;
    if (p != null) {
      pendingBytes -= p.bytes;
    }
    List<Copy> held = new ArrayList<>();
    for (Copy head : table) {
      for (Copy c = head; c != null; c = c.nextInBucket) {
        if (c.slave == s) {
          held.add(c);
        }
      }
    }
    for (Copy c : held) {
      if (c.live()) {
        affected.add(c.dataset.id);
      }
      unlink(c);
    }
    return affected;
  }

  /**
   * Evicts a dataset whole: each of its stored copies is queued for eviction on its slave, copies
   * still filling are queued when their slave reports them cached, and the dataset's tallies are
   * forgotten. The copies stay, doomed, until their slaves report them removed.
   */
  void evict(String datasetId) {
    Held d = held(datasetId);
    if (d == null) {
      return;
    }
    forget(d);
    if (datasetsOn != null) {
      for (int i = 0; i < d.slaveEntries; i++) {
        if (d.slaveBytes[i] > 0) {
          datasetsOn(d.slaveKeys[i]).remove(d.slavePos[i], d.slaveKeys[i]);
        }
      }
    }
    for (Copy c = d.head; c != null; c = c.nextInDataset) {
      c.doomed = true;
      if (!c.filling) {
        queue(c, true);
      }
    }
  }

  /**
   * The first {@code candidates}, in their order and skipping {@code keep}, whose {@code bytes}
   * (zero ones are skipped too) add up to at least {@code needed}; null when all of them do not.
   * How every dataset policy picks its victims, given the order it evicts in.
   */
  static <T> List<T> covering(Iterable<T> candidates, T keep, long needed,
      ToLongFunction<T> bytes) {
    List<T> victims = new ArrayList<>();
    long freed = 0;
    for (T v : candidates) {
      if (freed >= needed) {
        break;
      }
      long b = v == keep ? 0 : bytes.applyAsLong(v);
      if (b > 0) {
        victims.add(v);
        freed += b;
      }
    }
    return freed >= needed ? victims : null;
  }

  /** The bytes a slave frees by carrying out its pending evictions. O(1). */
  long pendingBytes(String slaveId) {
    Pending p = pending(slaveId);
    return p == null ? 0 : p.bytes;
  }

  /** A slave's To_Del list, or null when it has none. */
  private Pending pending(String slaveId) {
    int s = knownSlave(slaveId);
    return s < 0 ? null : pendingOf[s];
  }

  /** The bytes every slave frees by carrying out its pending evictions. O(1). */
  long pendingBytes() {
    return pendingBytes;
  }

  /** The slaves with pending evictions: a view, changing as evictions are queued and taken. */
  Set<String> slavesWithPending() {
    return Collections.unmodifiableSet(toDel.keySet());
  }

  /** Takes a slave's pending evictions, in the order they were queued. */
  List<BlockKey> takePending(String slaveId) {
    int s = knownSlave(slaveId);
    Pending p = s < 0 ? null : pendingOf[s];
    if (p == null) {
      return List.of();
    }
    toDel.remove(slaveId);
    pendingOf[s] = null;
    pendingBytes -= p.bytes;
    List<BlockKey> taken = new ArrayList<>(p.queued);
    for (Copy c : p.copies) {
      if (c.queued) {
        c.queued = false;
        taken.add(c.key());
      }
    }
    return taken;
  }

  // Views for the registry, the status catalog and operators' actions.

  /** How many copies a slave stores (live, doomed or stray). O(1). */
  public int storedCount(String slaveId) {
    Integer s = slaveIndex.get(slaveId);
    return s == null ? 0 : storedPerSlave[s];
  }

  /** The blocks a slave stores (live, doomed or stray). Scans the index. */
  public List<BlockKey> storedOn(String slaveId) {
    return blocksOn(slaveId, false);
  }

  /** The blocks a slave stores or is filling, in any state. Scans the index. */
  List<BlockKey> copiesOn(String slaveId) {
    return blocksOn(slaveId, true);
  }

  private List<BlockKey> blocksOn(String slaveId, boolean withFilling) {
    Integer s = slaveIndex.get(slaveId);
    List<BlockKey> out = new ArrayList<>();
    if (s == null) {
      return out;
    }
    for (Copy head : table) {
      for (Copy c = head; c != null; c = c.nextInBucket) {
        if (c.slave == s && (withFilling || !c.filling)) {
          out.add(c.key());
        }
      }
    }
    return out;
  }

  /** Whether a slave stores a block (in any state). */
  public boolean isStored(String slaveId, BlockKey block) {
    Copy c = copyOn(block, slaveId);
    return c != null && !c.filling;
  }

  /** The slaves that store or are filling a block, in any state. */
  public Set<String> holders(BlockKey block) {
    Set<String> out = new LinkedHashSet<>();
    for (Copy c = table[bucket(block)]; c != null; c = c.nextInBucket) {
      if (c.is(block)) {
        out.add(slaveNames.get(c.slave));
      }
    }
    return out;
  }

  /**
   * The slaves whose stored copy of a block is readable and stays: reported cached and not queued
   * for eviction (filling and doomed copies are left out).
   */
  public Set<String> readableOn(BlockKey block) {
    Set<String> out = new LinkedHashSet<>();
    for (Copy c = table[bucket(block)]; c != null; c = c.nextInBucket) {
      if (!c.filling && !c.doomed && c.is(block)) {
        out.add(slaveNames.get(c.slave));
      }
    }
    return out;
  }

  /**
   * The dataset a block was admitted for, whether its copies are live or doomed (to charge an
   * eviction to it); null for strays and untracked blocks.
   */
  public String ownerOf(BlockKey block) {
    for (Copy c = table[bucket(block)]; c != null; c = c.nextInBucket) {
      if (c.dataset != null && c.is(block)) {
        return c.dataset.id;
      }
    }
    return null;
  }

  /** Visits every live copy of a dataset, in the order they were admitted. */
  public void forEachCopy(String datasetId, CopyVisitor visitor) {
    Held d = datasets.get(datasetId);
    for (Copy c = d == null ? null : d.head; c != null; c = c.nextInDataset) {
      visitor.copy(slaveNames.get(c.slave), c.key(), c.bytes, !c.filling);
    }
  }
}
