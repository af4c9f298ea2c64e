package org.mpcache.slave.store;

import java.io.EOFException;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import java.util.zip.CRC32C;
import org.mpcache.common.BlockKey;
import org.mpcache.slave.volume.VolumeHealth;
import org.mpcache.slave.volume.VolumeHealth.DirState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slave's Input Cache on its SSD directories: cached HDFS blocks as files with checksum
 * sidecars, under {@code <dir>/current/<block pool>/blk_<id>_<genstamp>}; fills are written under
 * {@code <dir>/tmp} and renamed into place when complete, so a reader never sees a partial block.
 * The files are read and written through a {@link BlockStorage} ({@link BlockFile} gives the
 * layout), the seam where tests inject the SSD's faults.
 *
 * <p>Every file operation, of reads for RPC, of leases for the block stream and descriptors, and
 * of fills, passes through one {@link VolumeCheckedStorage}, which tells a {@link VolumeHealth}
 * of each directory's faults. A directory that policy puts out of service is taken out at once:
 * the space stops placing blocks there and leaves it out of its totals, its cached blocks are
 * dropped without touching its files (they are reported to the {@link #onVolumeOut} listener,
 * which tells the master), and no read, lease or fill uses it again until
 * {@link #returnVolumes}. Fills under way there fail at their commit at the latest.
 *
 * <p>Each block follows a state machine (see {@link State}):
 * <pre>
 *   absent --beginFill--&gt; FILLING --commit--&gt; CACHED --remove--&gt; REMOVING --&gt; absent
 *   REMOVING --&gt; absent waits for the block's last {@link BlockLease} to close
 *   FILLING --abort, or a failed commit--&gt; absent
 *   FILLING --remove--&gt; FILLING, to be discarded --commit or abort--&gt; absent
 * </pre>
 * Space is reserved in the {@link InputCacheSpace}, which also chooses the block's directory,
 * before a fill writes anything; the space learns when the fill is complete, and the reservation is
 * released before the key leaves the table, so a fill that claims the key next can reserve it.
 *
 * <p>Thread-safe without locks of its own: the block table is a concurrent map, a block's entry is
 * immutable and every change of state is a compare-and-set of the entry ({@code replace} or
 * {@code remove} of the expected entry), retried when another thread changed it first. A fill owns
 * its key through a claim object that its entry carries; leases are counted in the entry the same
 * way, and the one change that leaves a removed block with its files deleted and no lease left
 * releases its space. File reads need no lock (a removed file stays readable to readers that
 * opened it). The space is called with no lock held. The directories' health has a lock of its
 * own ({@link StoreVolumes}), a leaf: nothing is called while it is held.
 */
public final class FileBlockStore {
  private static final Logger LOG = LoggerFactory.getLogger(FileBlockStore.class);

  /** Where a block is in its life in the store. */
  public enum State {
    /**
     * Space reserved, bytes arriving; not readable. Removing a block in this state marks it to be
     * discarded: its fill's commit then fails and deletes it.
     */
    FILLING,
    /** Complete and checksummed; readable. */
    CACHED,
    /**
     * Being removed: not readable, its files being deleted and its space released, the space
     * only once no reader holds the block's file open through a {@link BlockLease}.
     */
    REMOVING
  }

  /**
   * A block's entry; immutable, replaced as a whole when the block changes state. Compared by
   * identity: every change of state is a compare-and-set of the very entry read.
   */
  private static final class Entry {
    /** The SSD directory of a CACHED or REMOVING block; null while FILLING. */
    final Path dir;
    /** The block as it is (or will be, once filled) recorded on the SSD. */
    final CachedBlock block;
    final State state;
    /** FILLING: the claim of the fill that owns the key, kept when the entry is discarded. */
    final Object claim;
    /** FILLING: the block was removed while filling and is deleted instead of committed. */
    final boolean discard;
    /** CACHED or REMOVING: readers holding the block's file open ({@link BlockLease}s). */
    final int leases;
    /** REMOVING: the files are deleted; the space goes with the last lease. */
    final boolean filesDeleted;

    private Entry(Path dir, CachedBlock block, State state, Object claim, boolean discard,
        int leases, boolean filesDeleted) {
      this.dir = dir;
      this.block = block;
      this.state = state;
      this.claim = claim;
      this.discard = discard;
      this.leases = leases;
      this.filesDeleted = filesDeleted;
    }

    static Entry filling(CachedBlock block, Object claim) {
      return new Entry(null, block, State.FILLING, claim, false, 0, false);
    }

    static Entry cached(Path dir, CachedBlock block) {
      return new Entry(dir, block, State.CACHED, null, false, 0, false);
    }

    Entry discarded() {
      return new Entry(null, block, State.FILLING, claim, true, 0, false);
    }

    Entry removing() {
      return new Entry(dir, block, State.REMOVING, null, false, leases, false);
    }

    Entry withLeases(int n) {
      return new Entry(dir, block, state, claim, discard, n, filesDeleted);
    }

    Entry deleted() {
      return new Entry(dir, block, state, claim, discard, leases, true);
    }

    /** Whether the block is gone but for its table entry and space, which may now be released. */
    boolean released() {
      return state == State.REMOVING && filesDeleted && leases == 0;
    }
  }

  private final BlockStorage storage;
  /**
   * The storage without the seam, for best-effort deletes: they mostly clean up after a fault
   * already counted, and a removal's failed delete leaves the block's bytes, not a reader, short.
   */
  private final BlockStorage unchecked;
  private final StoreVolumes volumes;
  private final InputCacheSpace space;
  private final int chunkSize;
  private final Map<BlockKey, Entry> entries = new ConcurrentHashMap<>();
  /** Bytes written to the SSD by fills: data and checksum files, committed or not. */
  private final LongAdder bytesWritten = new LongAdder();
  /** Hears of the blocks dropped with a directory taken out of service. */
  private volatile BiConsumer<Path, List<BlockKey>> volumeOut = (dir, blocks) -> { };
  /** Hears of each cached block removed while readers held its file ({@link BlockLease}s). */
  private volatile Consumer<BlockKey> removedWhileLeased = key -> { };

  private FileBlockStore(BlockStorage storage, InputCacheSpace space, int chunkSize,
      VolumeHealth health, LongSupplier ticker) {
    this.volumes = new StoreVolumes(health, this::takeOut);
    this.storage = new VolumeCheckedStorage(storage, volumes, ticker);
    this.unchecked = storage;
    this.space = space;
    this.chunkSize = chunkSize;
  }

  /**
   * Opens the store on {@code dirs}, creating them as needed, deleting unfinished fills, and
   * keeping every intact block a previous run left, with the dataset its sidecar records. Only
   * sizes and sidecar headers are read (the chunk checksums are left to a background pass): a
   * block whose sidecar is damaged, of an older format, names another block or disagrees with the
   * data file's size is deleted, and so is one the space has no room for; none of them stops the
   * store from opening. The directories are those {@code space} places blocks in, and
   * {@code health} judges their faults: both name them as {@link Path#toString()} does.
   * {@code ticker}, a monotonic clock in milliseconds, times the reads.
   */
  public static FileBlockStore open(BlockStorage storage, List<Path> dirs,
      InputCacheSpace space, int chunkSize, VolumeHealth health, LongSupplier ticker)
      throws IOException {
    if (dirs.isEmpty()) {
      throw new IllegalArgumentException("At least one cache directory is required");
    }
    if (chunkSize <= 0) {
      throw new IllegalArgumentException("chunkSize must be positive: " + chunkSize);
    }
    FileBlockStore store = new FileBlockStore(storage, space, chunkSize, health, ticker);
    for (Path d : dirs) {
      store.storage.prepare(d);
      for (BlockKey key : store.storage.list(d)) {
        store.recover(d, key);
      }
    }
    return store;
  }

  private void recover(Path root, BlockKey key) {
    BlockFile data = new BlockFile(root, key, BlockFile.Kind.DATA);
    BlockFile crc = data.sibling(BlockFile.Kind.CHECKSUMS);
    try {
      ChecksumFile.Header h = ChecksumFile.readHeader(storage, crc, key);
      CachedBlock block = h.block();
      long size = storage.size(data);
      if (size != block.length()) {
        throw new IOException("size " + size + " differs from its checksum file's "
            + block.length());
      }
      if (h.chunkSize() != chunkSize) {
        throw new IOException("chunk size " + h.chunkSize() + " differs from the configured "
            + chunkSize);
      }
      if (entries.containsKey(key)) {
        throw new IOException("the block is also cached in " + entries.get(key).dir);
      }
      if (space.tryReserve(key, block.length(), root.toString()) == null) {
        throw new IOException("no room left in the Input Cache's capacity");
      }
      entries.put(key, Entry.cached(root, block));
    } catch (IOException | IllegalArgumentException e) {
      LOG.warn("Dropping cached block file {}: {}", data, e.getMessage());
      deleteQuietly(data, crc);
    }
  }

  /** The state of a block, or empty when the store does not have it. */
  public Optional<State> state(BlockKey key) {
    Entry e = entries.get(key);
    return e == null ? Optional.empty() : Optional.of(e.state);
  }

  /** The length of a cached block, or -1 when it is not (or not yet) cached. */
  public long cachedLength(BlockKey key) {
    Entry e = entries.get(key);
    return e != null && e.state == State.CACHED ? e.block.length() : -1;
  }

  /**
   * The dataset a block was cached (or is being filled) for, or null when the store does not have
   * it.
   */
  public String datasetOf(BlockKey key) {
    Entry e = entries.get(key);
    return e == null ? null : e.block.datasetId();
  }

  /** The blocks that are cached (not those being filled). */
  public List<BlockKey> cachedBlocks() {
    List<BlockKey> out = new ArrayList<>();
    entries.forEach((k, e) -> {
      if (e.state == State.CACHED) {
        out.add(k);
      }
    });
    return out;
  }

  /** The blocks that are cached, with the dataset each was cached for. */
  public List<CachedBlock> cachedBlockRecords() {
    List<CachedBlock> out = new ArrayList<>();
    entries.forEach((k, e) -> {
      if (e.state == State.CACHED) {
        out.add(e.block);
      }
    });
    return out;
  }

  public InputCacheSpace space() {
    return space;
  }

  /**
   * The bytes fills wrote to the SSD since the store opened: every fill's data and checksum
   * files, whether it was committed or aborted (flash wears either way).
   */
  public long bytesWritten() {
    return bytesWritten.sum();
  }

  /** A fill wrote {@code bytes} to the SSD. */
  void wrote(long bytes) {
    bytesWritten.add(bytes);
  }

  /**
   * Starts filling a block of {@code length} bytes, cached for dataset {@code datasetId} of
   * {@code datasetBlocks} blocks, of HDFS file {@code file} (recorded on the SSD with it):
   * reserves its space and claims the key.
   *
   * @return the fill, or empty when the block is already present or its space cannot be reserved
   * @throws IOException when the SSD directory's file system cannot take the block and its
   *     checksums (something other than the Input Cache filled it), or cannot say what it can
   *     take; nothing is reserved or created then
   */
  public Optional<BlockFill> beginFill(BlockKey key, long length, String datasetId,
      int datasetBlocks, String file) throws IOException {
    if (length < 0) {
      throw new IllegalArgumentException("length must not be negative: " + length);
    }
    if (datasetId.isEmpty() || datasetBlocks < 1) {
      throw new IllegalArgumentException("A block is cached for a dataset of at least one block: '"
          + datasetId + "' of " + datasetBlocks);
    }
    // Claim the key first: the space holds one reservation per block, and a key's previous
    // reservation is released before its entry goes, so the key is free to reserve once claimed.
    Object claim = new Object();
    CachedBlock block = new CachedBlock(key, length, datasetId, datasetBlocks, file);
    if (entries.putIfAbsent(key, Entry.filling(block, claim)) != null) {
      return Optional.empty();
    }
    String reserved;
    try {
      reserved = space.tryReserve(key, length, null);
    } catch (RuntimeException e) {
      unclaim(key, claim);
      throw e;
    }
    if (reserved == null) {
      unclaim(key, claim);
      return Optional.empty();
    }
    if (!volumes.inService(Paths.get(reserved))) {
      // Taken out of service since the space chose it.
      space.release(key);
      unclaim(key, claim);
      return Optional.empty();
    }
    try {
      checkUsable(Paths.get(reserved), block);
    } catch (IOException | RuntimeException e) {
      space.release(key);
      unclaim(key, claim);
      throw e;
    }
    BlockFile fillFile = new BlockFile(Paths.get(reserved), key, BlockFile.Kind.FILL_DATA);
    return Optional.of(new BlockFill(this, storage, fillFile, chunkSize, claim, block));
  }

  /**
   * Fails when the file system of {@code dir} cannot take {@code block} and its sidecar: a
   * fill that would run out of room midway is not started, so that a full SSD costs no file
   * created and deleted again per miss.
   */
  private void checkUsable(Path dir, CachedBlock block) throws IOException {
    long need = block.length() + ChecksumFile.bytes(chunkSize, block);
    long usable = storage.usableBytes(dir);
    if (usable < need) {
      throw new IOException("the file system of SSD directory " + dir + " has " + usable
          + " bytes usable, fewer than the " + need + " that block " + block.key() + " and its"
          + " checksums take; something other than the Input Cache has filled it");
    }
  }

  void completeFill(BlockFill fill) throws IOException {
    if (!volumes.inService(fill.file().dir())) {
      abortFill(fill);
      throw new IOException("SSD directory " + fill.file().dir() + " went out of service while "
          + fill.key() + " was being filled");
    }
    BlockFile tmpCrc = fill.file().sibling(BlockFile.Kind.FILL_CHECKSUMS);
    BlockFile data = fill.file().sibling(BlockFile.Kind.DATA);
    BlockFile crc = fill.file().sibling(BlockFile.Kind.CHECKSUMS);
    try {
      ByteBuffer sidecar = ChecksumFile.encode(fill.chunkSize(), fill.checksums(), fill.block());
      int sidecarBytes = sidecar.remaining();
      storage.write(tmpCrc, 0, sidecar, true);
      wrote(sidecarBytes);
      // Both files reach the device before the block is published: after a crash, a block in
      // current is whole and its record says what it is. A rename lost in the crash leaves the
      // files in tmp, which the next start deletes.
      storage.sync(fill.file());
      storage.sync(tmpCrc);
      storage.move(tmpCrc, crc);
      storage.move(fill.file(), data);
    } catch (IOException | RuntimeException e) {
      // A partial sidecar (the disk is full) must not stay in tmp until the next start.
      deleteQuietly(tmpCrc, data, crc);
      abortFill(fill);
      throw e;
    }
    // The space may give the block's room away from now on; if it does, the block is removed,
    // which the publication below then sees as a discard.
    space.filled(fill.key());
    if (!publish(fill)) {
      deleteQuietly(data, crc);
      abortFill(fill);
      throw new IOException("Block " + fill.key() + " was removed while it was being filled");
    }
  }

  /** Turns the fill's entry CACHED unless the block was removed meanwhile. */
  private boolean publish(BlockFill fill) {
    Entry cached = Entry.cached(fill.file().dir(), fill.block());
    while (true) {
      Entry e = entries.get(fill.key());
      if (e == null || e.claim != fill.claim() || e.discard
          || !volumes.inService(fill.file().dir())) {
        return false;
      }
      if (entries.replace(fill.key(), e, cached)) {
        return true;
      }
    }
  }

  void abortFill(BlockFill fill) {
    deleteQuietly(fill.file());
    Entry e = entries.get(fill.key());
    if (e != null && e.claim == fill.claim()) {
      space.release(fill.key());
      unclaim(fill.key(), fill.claim());
    }
  }

  /** Removes the entry of the fill holding {@code claim}, discarded or not. */
  private void unclaim(BlockKey key, Object claim) {
    while (true) {
      Entry e = entries.get(key);
      if (e == null || e.claim != claim || entries.remove(key, e)) {
        return;
      }
    }
  }

  /**
   * Reads up to {@code length} bytes of a cached block from {@code offset}, widened to whole
   * checksum chunks.
   *
   * @throws BlockNotCachedException if the block is not cached
   * @throws CorruptBlockException if its files are gone or shorter than recorded (the caller
   *     should then {@link #remove} the block)
   * @throws IOException on any other I/O error, which says nothing about the block's bytes
   * @throws IllegalArgumentException if the offset is outside the block or the length negative
   */
  public BlockReadResult read(BlockKey key, long offset, int length) throws IOException {
    Entry e = entries.get(key);
    if (e == null || e.state != State.CACHED || !volumes.inService(e.dir)) {
      throw new BlockNotCachedException(key);
    }
    long blockLength = e.block.length();
    if (offset < 0 || offset > blockLength || length < 0) {
      throw new IllegalArgumentException("Read of " + key + " at " + offset + "+" + length
          + " is outside the block's " + blockLength + " bytes");
    }
    long start = offset - offset % chunkSize;
    long end = Math.min(blockLength, offset + length);
    long alignedEnd = Math.min(blockLength, (end + chunkSize - 1) / chunkSize * chunkSize);
    int n = (int) (alignedEnd - start);
    BlockFile file = new BlockFile(e.dir, key, BlockFile.Kind.DATA);
    byte[] data = new byte[n];
    int firstChunk = (int) (start / chunkSize);
    int chunks = (n + chunkSize - 1) / chunkSize;
    int[] crcs;
    try {
      int r = storage.read(file, start, ByteBuffer.wrap(data));
      if (r < n) {
        throw new CorruptBlockException(key, "its file ends at " + (start + r) + ", expected "
            + blockLength + " bytes");
      }
      crcs = ChecksumFile.readChecksums(storage, file.sibling(BlockFile.Kind.CHECKSUMS),
          firstChunk, chunks);
    } catch (EOFException shortCrc) {
      throw new CorruptBlockException(key, shortCrc.getMessage());
    } catch (NoSuchFileException gone) {
      throw new CorruptBlockException(key, "its file " + gone.getFile() + " is gone");
    }
    return new BlockReadResult(start, data, chunkSize, crcs);
  }

  /**
   * Recomputes a cached block's checksums from its file.
   *
   * @return true when every chunk matches its stored checksum; false when one does not, or the
   *     files are gone or short
   * @throws IOException on another I/O error, which leaves the question open
   */
  public boolean verify(BlockKey key) throws IOException {
    long length = cachedLength(key);
    if (length < 0) {
      throw new BlockNotCachedException(key);
    }
    CRC32C crc = new CRC32C();
    for (long off = 0; off < length; off += chunkSize * 64L) {
      BlockReadResult r;
      try {
        r = read(key, off, (int) Math.min(chunkSize * 64L, length - off));
      } catch (CorruptBlockException damaged) {
        return false;
      }
      byte[] d = r.data();
      for (int i = 0; i < r.checksums().length; i++) {
        crc.reset();
        int from = i * chunkSize;
        crc.update(d, from, Math.min(chunkSize, d.length - from));
        if ((int) crc.getValue() != r.checksums()[i]) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Removes a block: a cached block's files are deleted and its space released; a block being
   * filled is marked to be discarded, and its fill's commit deletes it instead.
   *
   * @return true when the block was cached or being filled here and was not already removed
   */
  public boolean remove(BlockKey key) {
    while (true) {
      Entry e = entries.get(key);
      if (e == null || e.state == State.REMOVING || e.discard) {
        return false;
      }
      if (e.state == State.FILLING) {
        if (entries.replace(key, e, e.discarded())) {
          return true;
        }
        continue;
      }
      Entry removing = e.removing();
      if (entries.replace(key, e, removing)) {
        if (volumes.inService(removing.dir)) {
          BlockFile data = new BlockFile(removing.dir, key, BlockFile.Kind.DATA);
          deleteQuietly(data, data.sibling(BlockFile.Kind.CHECKSUMS));
        }
        update(key, Entry::deleted);
        if (removing.leases > 0) {
          removedWhileLeased.accept(key);
        }
        return true;
      }
    }
  }

  /**
   * Takes a directory the policy put out of service out of the store: the space stops placing
   * blocks there, and its cached blocks are removed without touching the failing device (their
   * files stay until the directory returns or the slave restarts) and reported to the
   * {@link #onVolumeOut} listener. Runs on the thread whose fault tipped the directory.
   */
  private void takeOut(Path dir) {
    space.setInService(dir.toString(), false);
    List<BlockKey> dropped = new ArrayList<>();
    entries.forEach((k, e) -> {
      if (e.state == State.CACHED && dir.equals(e.dir) && remove(k)) {
        dropped.add(k);
      }
    });
    volumeOut.accept(dir, dropped);
  }

  /**
   * Sets who hears of the blocks dropped with a directory taken out of service (the slave, which
   * reports them to the master as removed). Called on the thread of the fault that tipped the
   * directory, with no lock held.
   */
  public void onVolumeOut(BiConsumer<Path, List<BlockKey>> listener) {
    this.volumeOut = listener;
  }

  /**
   * Sets who hears of each cached block {@link #remove}d while readers held its file (the
   * descriptor server, which tells their clients not to hand the file out again). Called on the
   * removing thread, with no lock held, after the block's files are deleted.
   */
  public void onRemovedWhileLeased(Consumer<BlockKey> listener) {
    this.removedWhileLeased = listener;
  }

  /** Every SSD directory's state: in service, or out with the cause and time. */
  public List<DirState> volumes() {
    return volumes.states();
  }

  /** How many times a directory went out of service since the store opened. */
  public long volumeFailures() {
    return volumes.failures();
  }

  /**
   * Returns the directories out of service ({@code mpcache admin refresh}): each is prepared
   * again (its unfinished fills deleted) and the block files it still holds are deleted, since
   * the master was told they were dropped; it then takes fills again. A directory whose files
   * cannot be listed or deleted stays out. The slave's restart does the same for every directory
   * (there, intact blocks are kept and reported at registration).
   *
   * @return the directories returned to service
   */
  public List<String> returnVolumes() {
    List<String> back = new ArrayList<>();
    for (String d : volumes.outOfService()) {
      Path dir = Paths.get(d);
      try {
        storage.prepare(dir);
        for (BlockKey k : storage.list(dir)) {
          BlockFile data = new BlockFile(dir, k, BlockFile.Kind.DATA);
          storage.delete(data);
          storage.delete(data.sibling(BlockFile.Kind.CHECKSUMS));
        }
      } catch (IOException e) {
        LOG.warn("SSD directory {} stays out of service: {}", dir, e.toString());
        continue;
      }
      if (volumes.restore(dir)) {
        space.setInService(d, true);
        back.add(d);
        LOG.info("SSD directory {} is back in service", dir);
      }
    }
    return back;
  }

  /**
   * Lends a cached block's file to a reader outside the slave (a descriptor passed to a client on
   * this host): until the lease is closed, a removal of the block deletes its files (no new
   * reader can open them) but keeps its space reserved, because the reader's open file still
   * holds the bytes on the SSD. The lease carries every chunk's stored checksum.
   *
   * @return the lease, or empty when the block is not cached (absent, being filled or removed)
   * @throws CorruptBlockException when the checksum file is gone or short (the caller should
   *     then {@link #remove} the block)
   * @throws IOException on another I/O error reading the checksums
   */
  public Optional<BlockLease> lease(BlockKey key) throws IOException {
    Entry e;
    do {
      e = entries.get(key);
      if (e == null || e.state != State.CACHED || !volumes.inService(e.dir)) {
        return Optional.empty();
      }
    } while (!entries.replace(key, e, e.withLeases(e.leases + 1)));
    BlockLease lease = new BlockLease(this, new BlockFile(e.dir, key, BlockFile.Kind.DATA),
        e.block.length(), chunkSize);
    try {
      int chunks = (int) ((e.block.length() + chunkSize - 1) / chunkSize);
      lease.checksums = ChecksumFile.readChecksums(storage,
          lease.file().sibling(BlockFile.Kind.CHECKSUMS), 0, chunks);
      return Optional.of(lease);
    } catch (EOFException shortCrc) {
      lease.close();
      throw new CorruptBlockException(key, shortCrc.getMessage());
    } catch (NoSuchFileException gone) {
      lease.close();
      if (cachedLength(key) < 0) {
        return Optional.empty();
      }
      throw new CorruptBlockException(key, "its file " + gone.getFile() + " is gone");
    } catch (IOException | RuntimeException ex) {
      lease.close();
      throw ex;
    }
  }

  /**
   * Opens a lent block's file through the store's seam, where a failure or a slow open counts
   * against its directory.
   *
   * @throws BlockNotCachedException when the directory has gone out of service
   */
  FileInputStream open(BlockLease lease) throws IOException {
    if (!volumes.inService(lease.file().dir())) {
      throw new BlockNotCachedException(lease.key());
    }
    return storage.open(lease.file());
  }

  /**
   * Counts a lent file's transfer error (of the block stream, which sends the file with
   * {@code transferTo}) against its directory when the error is the device's: an I/O error. The
   * socket's own errors (a reader gone) are not.
   */
  void transferFailed(BlockLease lease, IOException e) {
    if (String.valueOf(e.getMessage()).contains("Input/output error")) {
      volumes.fault(lease.file().dir(), VolumeHealth.Fault.READ_ERROR,
          "transfer of " + lease.file() + ": " + e);
    }
  }

  /** Ends a lease; the last one of a removed block releases its space. */
  void unlease(BlockKey key) {
    update(key, e -> e.withLeases(e.leases - 1));
  }

  /**
   * Replaces a CACHED or REMOVING block's entry by {@code change} of it; the change that leaves a
   * removed block with its files deleted and no lease releases its space, then drops the entry.
   */
  private void update(BlockKey key, UnaryOperator<Entry> change) {
    while (true) {
      Entry e = entries.get(key);
      if (e == null || e.state == State.FILLING) {
        return;
      }
      Entry next = change.apply(e);
      if (entries.replace(key, e, next)) {
        if (next.released()) {
          space.release(key);
          entries.remove(key, next);
        }
        return;
      }
    }
  }

  /** Whether a reader holds the block open: a lease of it is not closed yet. */
  public boolean leased(BlockKey key) {
    Entry e = entries.get(key);
    return e != null && e.leases > 0;
  }

  /** Leases of cached or removed blocks still open, for metrics and tests. */
  public int leasesHeld() {
    int n = 0;
    for (Entry e : entries.values()) {
      n += e.leases;
    }
    return n;
  }

  /**
   * Deletes files of a block that is not (or no longer) in the table. One that cannot be deleted
   * is logged and left: the block's entry and reservation must go regardless, or it would stay
   * FILLING (or its space held) until the slave restarts. Leftovers in {@code tmp} are deleted at
   * the next start; in {@code current}, adopted again then if intact.
   */
  private void deleteQuietly(BlockFile... files) {
    for (BlockFile f : files) {
      try {
        unchecked.delete(f);
      } catch (IOException e) {
        LOG.warn("Could not delete {}: {}", f, e.getMessage());
      }
    }
  }

  /** The data file of a cached block, for tests and diagnostics. */
  public Optional<Path> blockFile(BlockKey key) {
    Entry e = entries.get(key);
    if (e == null || e.state != State.CACHED) {
      return Optional.empty();
    }
    return Optional.of(new BlockFile(e.dir, key, BlockFile.Kind.DATA).path());
  }
}
