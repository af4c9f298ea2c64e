package org.mpcache.slave.security;

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
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.util.Time;
import org.mpcache.common.BlockKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies HDFS block access tokens exactly as a DataNode does: it fetches the NameNode's block
 * keys (as the Balancer does, which needs the HDFS superuser's credentials) and checks a token's
 * block pool, block id, access mode, expiry and signature. When a token is signed with a key it
 * has not seen, it fetches the keys again, at most once per {@link #REFRESH_MIN_INTERVAL_MS}.
 * Used when {@code dfs.block.access.token.enable} is true, the same switch that makes HDFS issue
 * tokens. The NameNode of {@code fs.defaultFS} is consulted (one block pool).
 *
 * <p>Thread-safe. This object's monitor guards only the refresh bookkeeping and is never held
 * while keys are fetched: one check at a time fetches them, with no lock held, then publishes them
 * to the secret manager, which is thread-safe. A check whose key is unknown while another check is
 * fetching keys is decided with the keys at hand, without waiting (a denied client reads from
 * HDFS). Lock order: 1. this object's monitor; 2. the secret manager's, never taken under 1.
 */
public final class BlockTokenChecker implements BlockAccessChecker {
  private static final Logger LOG = LoggerFactory.getLogger(BlockTokenChecker.class);
  static final long REFRESH_MIN_INTERVAL_MS = 10_000;

  /** Where the block keys come from: the NameNode, or a test's fake. */
  @FunctionalInterface
  interface KeySource {
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
   * @param keys fetches the NameNode's current block keys
   * @param secrets a worker-mode secret manager of {@code blockPoolId}
   * @param clock monotonic milliseconds
   */
  BlockTokenChecker(KeySource keys, BlockTokenSecretManager secrets, String blockPoolId,
      LongSupplier clock) {
    this.keys = keys;
    this.secrets = secrets;
    this.blockPoolId = blockPoolId;
    this.clock = clock;
  }

  /** Connects to the default file system's NameNode and loads its current block keys. */
  public static BlockTokenChecker connect(Configuration conf) throws IOException {
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
    BlockTokenChecker checker = new BlockTokenChecker(namenode::getBlockKeys, secrets, pool,
        Time::monotonicNow);
    checker.refreshKeys();
    LOG.info("Checking block access tokens of block pool {} with keys from {}", pool, nn);
    return checker;
  }

  /** Fetches the NameNode's keys with no lock held, then adds them to the secret manager. */
  void refreshKeys() throws IOException {
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
   * Claims the key refresh a check may make now: none while another is under way, and at most
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

  @Override
  public void check(BlockKey block, String encodedToken) throws IOException {
    if (encodedToken == null || encodedToken.isEmpty()) {
      throw new AccessControlException("No block access token for " + block
          + ": this cluster requires one (dfs.block.access.token.enable=true)");
    }
    if (!block.getBlockPoolId().equals(blockPoolId)) {
      throw new AccessControlException("Block " + block + " is not in block pool " + blockPoolId
          + ", whose tokens this slave checks");
    }
    Token<BlockTokenIdentifier> token = new Token<>();
    BlockTokenIdentifier id;
    try {
      token.decodeFromUrlString(encodedToken);
      id = token.decodeIdentifier();
    } catch (IOException | RuntimeException e) {
      throw new AccessControlException("Malformed block access token for " + block + ": "
          + e.getMessage());
    }
    if (id == null) {
      throw new AccessControlException("Block access token for " + block + " has no identifier");
    }
    if (!secrets.hasKey(id.getKeyId()) && claimRefresh()) {
      refreshKeys();
    }
    ExtendedBlock b = new ExtendedBlock(block.getBlockPoolId(), block.getBlockId(), 0,
        block.getGenerationStamp());
    try {
      secrets.checkAccess(token, null, b, BlockTokenIdentifier.AccessMode.READ);
    } catch (SecretManager.InvalidToken e) {
      throw new AccessControlException("Block access token rejected for " + block + ": "
          + e.getMessage());
    }
  }
}
