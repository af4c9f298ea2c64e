package org.mpcache.slave.store;

import java.nio.file.Path;
import java.util.Objects;
import org.mpcache.common.BlockKey;

/**
 * One file of a block in a {@link BlockStorage}: the SSD directory it lives in, the block, and
 * which of the block's files it is. {@link #path()} is the on-disk layout: a fill is written under
 * {@code <dir>/tmp} and moved, when complete, to {@code <dir>/current/<block pool>}, where a
 * cached block is a data file {@code blk_<id>_<genstamp>} and its checksum sidecar
 * {@code blk_<id>_<genstamp>.crc}.
 *
 * <p>Immutable.
 *
 * @param dir the SSD directory (one of {@code mpcache.slave.cache.dirs})
 */
public record BlockFile(Path dir, BlockKey key, Kind kind) {
  /** The suffix of a checksum sidecar's name. */
  static final String CHECKSUM_SUFFIX = ".crc";

  /** Which of a block's files. */
  public enum Kind {
    /** A fill's bytes, written under {@code tmp} until the fill is committed. */
    FILL_DATA,
    /** A fill's checksum sidecar, written under {@code tmp} when the fill is committed. */
    FILL_CHECKSUMS,
    /** A cached block's bytes. */
    DATA,
    /** A cached block's checksum sidecar. */
    CHECKSUMS
  }

  public BlockFile {
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(kind, "kind");
  }

  /** The same block's file of another kind, in the same directory. */
  public BlockFile sibling(Kind other) {
    return new BlockFile(dir, key, other);
  }

  /** Where the file is on disk. */
  public Path path() {
    String fill = key.getBlockPoolId() + "_" + key.fileName();
    Path pool = dir.resolve("current").resolve(key.getBlockPoolId());
    return switch (kind) {
      case FILL_DATA -> dir.resolve("tmp").resolve(fill);
      case FILL_CHECKSUMS -> dir.resolve("tmp").resolve(fill + CHECKSUM_SUFFIX);
      case DATA -> pool.resolve(key.fileName());
      case CHECKSUMS -> pool.resolve(key.fileName() + CHECKSUM_SUFFIX);
    };
  }

  @Override
  public String toString() {
    return path().toString();
  }
}
