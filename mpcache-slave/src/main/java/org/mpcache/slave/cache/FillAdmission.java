package org.mpcache.slave.cache;

import java.io.IOException;
import java.util.Optional;
import org.mpcache.common.proto.SlaveMasterProtos.ReplaceResponseProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.slave.master.MasterLink;
import org.mpcache.slave.store.BlockFill;
import org.mpcache.slave.store.FileBlockStore;

/**
 * The one way a block enters the Input Cache, for readers' misses and operator prefetches alike:
 * the block's file is checked at the NameNode ({@link BlockFileCheck}), so that the master judges
 * the block by a file the slave
 * found it in; the master's Replace Arbitrator is asked (Algorithm 1's replace request); the
 * evictions it orders are carried out; then space is reserved and a fill opened in the store.
 *
 * <p>Thread-safe: the store, the master link and the check are.
 */
public final class FillAdmission {
  private final InputCache cache;
  private final MasterLink master;
  private final BlockFileCheck blockFiles;

  /**
   * What an admission came to: an open fill its caller writes and commits or aborts, or the
   * reason there is none, with the I/O error behind it if any.
   */
  public record Result(BlockFill fill, MissReason refusal, String detail, IOException error) {
    static Result refused(MissReason refusal, String detail) {
      return new Result(null, refusal, detail, null);
    }

    static Result failed(MissReason refusal, IOException error) {
      return new Result(null, refusal, error.getMessage(), error);
    }

    public boolean admitted() {
      return fill != null;
    }

    /** The refusal as a lookup's miss reason. */
    public String missReason() {
      return refusal.describe(detail);
    }
  }

  public FillAdmission(InputCache cache, MasterLink master, BlockFileCheck blockFiles) {
    this.cache = cache;
    this.master = master;
    this.blockFiles = blockFiles;
  }

  /** Admits {@code r}'s block and opens its fill; refused when it is cached or being filled. */
  public Result admit(FillRequest r) {
    FileBlockStore store = cache.store();
    if (store.state(r.key()).isPresent()) {
      return Result.refused(MissReason.BEING_FILLED, null);
    }
    try {
      if (!blockFiles.isBlockOf(r.key(), r.path(), r.offset(), r.length())) {
        return Result.refused(MissReason.NOT_THE_FILES_BLOCK,
            r.path() + " at " + r.offset() + " of " + r.length() + " bytes");
      }
    } catch (IOException e) {
      return Result.failed(MissReason.FILE_UNCHECKED, e);
    }
    ReplaceResponseProto d;
    try {
      d = master.requestReplace(r.access(), store.space().freeBytes(), r.force(), r.path(),
          r.offset());
    } catch (IOException e) {
      return Result.failed(MissReason.MASTER_UNREACHABLE, e);
    }
    if (!d.getAdmitted()) {
      return Result.refused(MissReason.NOT_ADMITTED, d.getReason());
    }
    cache.evict(ProtoConverters.fromProtos(d.getEvictList()));
    try {
      Optional<BlockFill> fill = store.beginFill(r.key(), r.length(), r.datasetId(),
          r.datasetBlocks(), r.path());
      return fill.isPresent() ? new Result(fill.get(), null, null, null)
          : Result.refused(MissReason.NO_SPACE, null);
    } catch (IOException e) {
      return Result.failed(MissReason.SSD_ERROR, e);
    }
  }
}
