package org.mpcache.slave.store;

import java.io.IOException;
import org.mpcache.common.BlockKey;

/**
 * A cached block's files are damaged for good: the block file (or its checksum sidecar) is shorter
 * than recorded or gone. Unlike other I/O errors (EIO, too many open files), which may pass and say
 * nothing about the bytes, this one means the block must be dropped.
 */
public final class CorruptBlockException extends IOException {
  private static final long serialVersionUID = 1L;

  public CorruptBlockException(BlockKey key, String why) {
    super("Cached block " + key + " is corrupt: " + why);
  }
}
