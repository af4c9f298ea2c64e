package org.mpcache.common.security;

import java.io.IOException;
import java.net.URI;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.NameNodeProxies;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenSecretManager;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocol;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NameNode's block keys, held as a DataNode holds them, for two uses:
 * <ul>
 *   <li>checking that a block token allows reading a block ({@link #checkAccess}), as a DataNode
 *       checks one on every read;</li>
 *   <li>authenticating RPC callers: as a Hadoop RPC server's secret manager it lets a caller that
 *       holds any valid block token of the pool connect (SASL DIGEST-MD5, with
 *       {@code hadoop.rpc.protection} applying), as a DataNode's {@code ClientDatanodeProtocol}
 *       server does. Tasks hold block tokens and no Kerberos ticket; what a caller may do with a
 *       block is still decided per call, with that block's own token.</li>
 * </ul>
 * The keys are fetched from the NameNode of {@code fs.defaultFS} (as the Balancer does, which needs
 * the HDFS superuser's credentials). When a token is signed with a key not seen yet, the keys are
 * fetched again, at most once per {@link #REFRESH_MIN_INTERVAL_MS}.
 *
 * <p>Thread-safe. This object's monitor guards only the refresh bookkeeping and is never held
 * while keys are fetched: one caller at a time fetches them, with no lock held, then publishes them
 * to the block token secret manager, which is thread-safe. A token whose key is unknown while
 * another caller is fetching keys is decided with the keys at hand, without waiting. Lock order:
 * 1. this object's monitor; 2. the block token secret manager's, never taken under 1.
 */
public final class BlockKeySecretManager extends SecretManager<BlockTokenIdentifier> {
  private static final Logger LOG = LoggerFactory.getLogger(BlockKeySecretManager.class);
  /** The least time between two key fetches. */
  public static final long REFRESH_MIN_INTERVAL_MS = 10_000;

  /** Where the block keys come from: the NameNode, or a test's fake. */
  @FunctionalInterface
  public interface KeySource {
    ExportedBlockKeys fetch() throws IOException;
  }

  private final KeySource keys;
  private final BlockTokenSecretManager secrets;
  private final String blockPoolId;
  private final LongSupplier clock;
  @GuardedBy("this")
  private long lastRefresh;
  @GuardedBy("this")
  private boolean fetching;

  /**
   * Holds no key until {@link #refreshKeys}.
   *
   * @param keys fetches the NameNode's current block keys
   * @param secrets a worker-mode secret manager of {@code blockPoolId}
   * @param clock monotonic milliseconds
   */
  public BlockKeySecretManager(KeySource keys, BlockTokenSecretManager secrets,
      String blockPoolId, LongSupplier clock) {
    this.keys = keys;
    this.secrets = secrets;
    this.blockPoolId = blockPoolId;
    this.clock = clock;
  }

  /** Connects to the default file system's NameNode and loads its current block keys. */
  public static BlockKeySecretManager connect(Configuration conf) throws IOException {
    URI nn = FileSystem.getDefaultUri(conf);
    NamenodeProtocol namenode = NameNodeProxies.createProxy(conf, nn, NamenodeProtocol.class)
        .getProxy();
    String pool = namenode.versionRequest().getBlockPoolID();
    long keyUpdateMs = conf.getLong(DFSConfigKeys.DFS_BLOCK_ACCESS_KEY_UPDATE_INTERVAL_KEY,
        DFSConfigKeys.DFS_BLOCK_ACCESS_KEY_UPDATE_INTERVAL_DEFAULT) * 60_000L;
    long lifetimeMs = conf.getLong(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_LIFETIME_KEY,
        DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_LIFETIME_DEFAULT) * 60_000L;
    BlockTokenSecretManager secrets = new BlockTokenSecretManager(keyUpdateMs, lifetimeMs, pool,
        conf.get(DFSConfigKeys.DFS_DATA_ENCRYPTION_ALGORITHM_KEY),
        conf.getBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_PROTOBUF_ENABLE,
            DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_PROTOBUF_ENABLE_DEFAULT));
    BlockKeySecretManager m = new BlockKeySecretManager(namenode::getBlockKeys, secrets, pool,
        Time::monotonicNow);
    m.refreshKeys();
    LOG.info("Holding the block keys of block pool {} from {}", pool, nn);
    return m;
  }

  /** The block pool whose keys these are. */
  public String blockPoolId() {
    return blockPoolId;
  }

  /** Fetches the NameNode's keys with no lock held, then adds them to the secret manager. */
  public void refreshKeys() throws IOException {
    ExportedBlockKeys fetched;
    try {
      fetched = keys.fetch();
    } finally {
      synchronized (this) {
        fetching = false;
        lastRefresh = clock.getAsLong();
      }
    }
    secrets.addKeys(fetched);
  }

  /**
   * Claims the key refresh a caller may make now: none while another is under way, and at most
   * one per {@link #REFRESH_MIN_INTERVAL_MS}.
   */
  private synchronized boolean claimRefresh() {
    long now = clock.getAsLong();
    if (fetching || now - lastRefresh < REFRESH_MIN_INTERVAL_MS) {
      return false;
    }
    fetching = true;
    lastRefresh = now;
    return true;
  }

  /** Fetches the keys again when {@code keyId} is unknown and a refresh may be made now. */
  private void learnKey(int keyId) throws IOException {
    if (!secrets.hasKey(keyId) && claimRefresh()) {
      refreshKeys();
    }
  }

  /**
   * Checks that {@code token} (whose identifier is {@code id}) allows reading {@code block}, as a
   * DataNode does: block pool, block id, READ mode, expiry and signature.
   *
   * @throws SecretManager.InvalidToken when it does not
   * @throws IOException when the keys cannot be fetched
   */
  public void checkAccess(Token<BlockTokenIdentifier> token, BlockTokenIdentifier id,
      ExtendedBlock block) throws IOException {
    learnKey(id.getKeyId());
    secrets.checkAccess(token, null, block, BlockTokenIdentifier.AccessMode.READ);
  }

  /** The password of a block token of this pool signed with a NameNode key, for SASL. */
  @Override
  public byte[] retrievePassword(BlockTokenIdentifier id) throws InvalidToken {
    if (!blockPoolId.equals(id.getBlockPoolId())) {
      throw new InvalidToken("Block token of block pool " + id.getBlockPoolId()
          + ", not of " + blockPoolId + " whose keys this daemon holds");
    }
    try {
      learnKey(id.getKeyId());
    } catch (IOException e) {
      throw new InvalidToken("Cannot fetch the NameNode's block keys: " + e.getMessage());
    }
    return secrets.retrievePassword(id);
  }

  /** Never called by an RPC server: the NameNode issues block tokens, never a daemon of ours. */
  @Override
  protected byte[] createPassword(BlockTokenIdentifier id) {
    throw new UnsupportedOperationException("Block tokens are issued by the NameNode");
  }

  @Override
  public BlockTokenIdentifier createIdentifier() {
    return new BlockTokenIdentifier();
  }
}
