package org.mpcache.slave.verify;

import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.BlockChecksumOptions;
import org.apache.hadoop.hdfs.protocol.BlockChecksumType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.DatanodeInfoBuilder;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.protocol.datatransfer.DataTransferProtoUtil;
import org.apache.hadoop.hdfs.protocol.datatransfer.IOStreamPair;
import org.apache.hadoop.hdfs.protocol.datatransfer.Sender;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.OpBlockChecksumResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.HdfsProtos.BlockChecksumTypeProto;
import org.apache.hadoop.hdfs.protocolPB.PBHelperClient;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.service.AbstractService;
import org.apache.hadoop.util.CrcUtil;
import org.apache.hadoop.util.DataChecksum;
import org.apache.hadoop.util.Time;
import org.mpcache.common.BlockKey;
import org.mpcache.slave.SlaveConfigKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks a DataNode for its COMPOSITE_CRC of a block over HDFS's data transfer protocol
 * ({@code OP_BLOCK_CHECKSUM}), as {@code FileChecksumHelper.ReplicatedFileChecksumComputer}
 * does for {@code getFileChecksum}: connect (with SASL when HDFS protects data transfer), send the
 * block and the client's block token, read the response, check its status. The DataNode computes
 * the CRC from its block's meta file, so the answer is HDFS's, not the client's.
 *
 * <p>Which DataNodes: the one beside this slave ({@code mpcache.slave.datanode.address}) first,
 * then the replicas the client named, each with a {@link #TIMEOUT_MS} timeout. A client-named
 * address is asked only if the NameNode's report of live DataNodes lists it, so that a client
 * cannot point the slave at a "DataNode" of its own. The report is fetched when an address is not
 * in the last one, at most once per {@link #REPORT_REFRESH_MIN_MS}; it needs the HDFS superuser (as
 * the block token checker does). If it cannot be fetched, only the configured neighbour is asked.
 *
 * <p>Thread-safe: the report is an immutable map behind a volatile field, its refresh claimed by
 * one caller at a time with a CAS; no lock is held while the NameNode or a DataNode is asked.
 */
public final class DataNodeChecksumSource extends AbstractService implements BlockChecksumSource {
  private static final Logger LOG = LoggerFactory.getLogger(DataNodeChecksumSource.class);
  static final int TIMEOUT_MS = 5_000;
  static final long REPORT_REFRESH_MIN_MS = 30_000;
  /** Client-named replicas asked at most: HDFS's replication rarely exceeds this. */
  static final int MAX_REPLICAS = 8;

  private volatile DistributedFileSystem dfs;
  private volatile String neighbour = "";
  private volatile Map<String, DatanodeInfo> liveDataNodes = Map.of();
  private final AtomicLong lastReport = new AtomicLong(Long.MIN_VALUE / 2);
  private final AtomicBoolean reportFailureLogged = new AtomicBoolean();

  public DataNodeChecksumSource() {
    super(DataNodeChecksumSource.class.getSimpleName());
  }

  @Override
  protected void serviceStart() throws Exception {
    Configuration conf = getConfig();
    neighbour = conf.getTrimmed(SlaveConfigKeys.DATANODE_ADDRESS_KEY,
        SlaveConfigKeys.DATANODE_ADDRESS_DEFAULT);
    FileSystem fs = FileSystem.newInstance(FileSystem.getDefaultUri(conf), conf);
    if (!(fs instanceof DistributedFileSystem)) {
      IOUtils.closeStream(fs);
      throw new IllegalArgumentException(SlaveConfigKeys.FILL_VERIFY_KEY + "=true needs "
          + FileSystem.FS_DEFAULT_NAME_KEY + " to name the HDFS whose blocks are cached (it is "
          + FileSystem.getDefaultUri(conf) + "): set it, or set " + SlaveConfigKeys.FILL_VERIFY_KEY
          + "=false to take fills on the clients' word");
    }
    dfs = (DistributedFileSystem) fs;
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    IOUtils.closeStream(dfs);
    super.serviceStop();
  }

  @Override
  public Optional<HdfsBlockCrc> crcOf(BlockKey block, long length, String blockToken,
      List<String> replicas) {
    Token<BlockTokenIdentifier> token = new Token<>();
    if (blockToken != null && !blockToken.isEmpty()) {
      try {
        token.decodeFromUrlString(blockToken);
      } catch (IOException | RuntimeException e) {
        LOG.debug("Malformed block token for {}: {}", block, e.toString());
        return Optional.empty();
      }
    }
    ExtendedBlock b = new ExtendedBlock(block.getBlockPoolId(), block.getBlockId(), length,
        block.getGenerationStamp());
    for (DatanodeInfo dn : candidates(replicas)) {
      try {
        return Optional.of(ask(dn, b, token));
      } catch (IOException | RuntimeException e) {
        LOG.debug("DataNode {} could not vouch for {}: {}", dn.getXferAddr(), block,
            e.toString());
      }
    }
    return Optional.empty();
  }

  /** The DataNodes to ask, in order: the neighbour, then the client's confirmed replicas. */
  private List<DatanodeInfo> candidates(List<String> replicas) {
    Set<String> addrs = new LinkedHashSet<>();
    if (!neighbour.isEmpty()) {
      addrs.add(neighbour);
    }
    for (String r : replicas.subList(0, Math.min(replicas.size(), MAX_REPLICAS))) {
      addrs.add(r.trim());
    }
    Map<String, DatanodeInfo> out = new LinkedHashMap<>();
    for (String a : addrs) {
      DatanodeInfo dn = liveDataNodes.get(a);
      if (dn == null && refreshReport()) {
        dn = liveDataNodes.get(a);
      }
      if (dn == null && a.equals(neighbour) && liveDataNodes.isEmpty()) {
        dn = fromAddress(a); // no report: the operator's word for the neighbour stands
      }
      if (dn == null) {
        LOG.debug("Not asking {}: not a live DataNode the NameNode reports", a);
        continue;
      }
      out.putIfAbsent(dn.getXferAddr(), dn);
    }
    return List.copyOf(out.values());
  }

  /** Fetches the live DataNodes if no other caller is and the last fetch is old enough. */
  private boolean refreshReport() {
    long now = Time.monotonicNow();
    long last = lastReport.get();
    if (now - last < REPORT_REFRESH_MIN_MS || !lastReport.compareAndSet(last, now)) {
      return false;
    }
    try {
      Map<String, DatanodeInfo> m = new HashMap<>();
      for (DatanodeInfo dn : dfs.getDataNodeStats(DatanodeReportType.LIVE)) {
        m.put(dn.getXferAddr(), dn);
        m.put(dn.getXferAddrWithHostname(), dn);
      }
      liveDataNodes = Map.copyOf(m);
      return true;
    } catch (IOException | RuntimeException e) {
      if (reportFailureLogged.compareAndSet(false, true)) {
        LOG.warn("Cannot list HDFS's live DataNodes ({}); fills will be verified only by the "
            + "DataNode beside this slave, {}", e.toString(),
            neighbour.isEmpty() ? "which is not configured (" + SlaveConfigKeys.DATANODE_ADDRESS_KEY
                + ")" : neighbour);
      }
      return false;
    }
  }

  private static DatanodeInfo fromAddress(String hostPort) {
    InetSocketAddress a = NetUtils.createSocketAddr(hostPort);
    String ip = a.getAddress() == null ? a.getHostString() : a.getAddress().getHostAddress();
    return new DatanodeInfoBuilder().setIpAddr(ip).setHostName(a.getHostString())
        .setDatanodeUuid("").setXferPort(a.getPort()).build();
  }

  private HdfsBlockCrc ask(DatanodeInfo dn, ExtendedBlock b, Token<BlockTokenIdentifier> token)
      throws IOException {
    DFSClient client = dfs.getClient();
    try (Socket sock = NetUtils.getDefaultSocketFactory(getConfig()).createSocket()) {
      NetUtils.connect(sock, NetUtils.createSocketAddr(dn.getXferAddr()), TIMEOUT_MS);
      sock.setTcpNoDelay(true);
      sock.setSoTimeout(TIMEOUT_MS);
      IOStreamPair pair = client.getSaslDataTransferClient().newSocketSend(sock,
          NetUtils.getOutputStream(sock, TIMEOUT_MS), NetUtils.getInputStream(sock, TIMEOUT_MS),
          client, token, dn);
      new Sender(new DataOutputStream(pair.out)).blockChecksum(b, token,
          new BlockChecksumOptions(BlockChecksumType.COMPOSITE_CRC));
      BlockOpResponseProto reply = BlockOpResponseProto.parseFrom(
          PBHelperClient.vintPrefixed(pair.in));
      DataTransferProtoUtil.checkBlockOpStatus(reply, "for block " + b + " from " + dn);
      OpBlockChecksumResponseProto r = reply.getChecksumResponse();
      if (r.getBlockChecksumOptions().getBlockChecksumType() != BlockChecksumTypeProto.COMPOSITE_CRC
          || r.getBlockChecksum().size() != 4) {
        throw new IOException("DataNode answered with a " + r.getBlockChecksumOptions()
            .getBlockChecksumType() + " checksum of " + r.getBlockChecksum().size()
            + " bytes, not a composite CRC");
      }
      DataChecksum.Type type = PBHelperClient.convert(r.getCrcType());
      if (type != DataChecksum.Type.CRC32C && type != DataChecksum.Type.CRC32) {
        throw new IOException("DataNode keeps " + type + " checksums, not CRC32 or CRC32C");
      }
      return new HdfsBlockCrc(type == DataChecksum.Type.CRC32C,
          CrcUtil.readInt(r.getBlockChecksum().toByteArray(), 0), dn.getXferAddr());
    }
  }
}
