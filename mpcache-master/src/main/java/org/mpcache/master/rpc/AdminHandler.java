package org.mpcache.master.rpc;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.AuthorizationException;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.apache.hadoop.thirdparty.protobuf.TextFormat;
import org.mpcache.common.proto.AdminProtos.ControlRequestProto;
import org.mpcache.common.proto.AdminProtos.ControlResponseProto;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.common.proto.AdminProtos.DatasetsRequestProto;
import org.mpcache.common.proto.AdminProtos.DatasetsResponseProto;
import org.mpcache.common.proto.AdminProtos.DecommissionRequestProto;
import org.mpcache.common.proto.AdminProtos.DecommissionResponseProto;
import org.mpcache.common.proto.AdminProtos.EvictRequestProto;
import org.mpcache.common.proto.AdminProtos.EvictResponseProto;
import org.mpcache.common.proto.AdminProtos.ExplainRequestProto;
import org.mpcache.common.proto.AdminProtos.ExplainResponseProto;
import org.mpcache.common.proto.AdminProtos.PrefetchRequestProto;
import org.mpcache.common.proto.AdminProtos.PrefetchResponseProto;
import org.mpcache.common.proto.AdminProtos.RefreshRequestProto;
import org.mpcache.common.proto.AdminProtos.RefreshResponseProto;
import org.mpcache.common.proto.AdminProtos.ReportRequestProto;
import org.mpcache.common.proto.AdminProtos.ReportResponseProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.protocolPB.AdminProtocolPB;
import org.mpcache.common.protocolPB.RequestRefusedException;
import org.mpcache.master.admin.MasterRefresher;
import org.mpcache.master.admin.PrefetchPlanner;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.master.registry.SlaveRegistry;
import org.mpcache.master.security.AdminAcls;
import org.mpcache.master.status.MasterStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the administrator-to-master protocol ({@code mpcache admin}): status queries through
 * {@link MasterStatus}, and the operators' actions (evict, prefetch, decommission, refresh, pin,
 * unpin, ttl, quota). A request the master cannot carry out fails with a
 * {@link RequestRefusedException} whose message says why and what to do; the CLI prints it.
 *
 * <p>Every operation first checks its caller against the admin ACLs ({@link AdminAcls}): the
 * caller is the RPC's remote user, authenticated by Kerberos on a secure cluster and only claimed
 * by the client with simple authentication, as everywhere in Hadoop. A refused call fails with an
 * {@link AccessControlException} naming the caller and the ACL. {@code prefetch} then lists the
 * path as the caller ({@link PrefetchPlanner}).
 *
 * <p>Thread-safe: it holds no state of its own.
 */
public final class AdminHandler implements AdminProtocolPB {
  private static final Logger LOG = LoggerFactory.getLogger(AdminHandler.class);

  private final MasterStatus status;
  private final SlaveRegistry registry;
  private final ReplaceArbitrator arbitrator;
  private final PrefetchPlanner prefetch;
  private final MasterRefresher refresher;
  private final AdminAcls acls;

  public AdminHandler(MasterStatus status, SlaveRegistry registry, ReplaceArbitrator arbitrator,
      PrefetchPlanner prefetch, MasterRefresher refresher, AdminAcls acls) {
    this.status = status;
    this.registry = registry;
    this.arbitrator = arbitrator;
    this.prefetch = prefetch;
    this.refresher = refresher;
    this.acls = acls;
  }

  /**
   * The caller: the RPC's remote user, or, for a call from inside the master's process, the
   * current user (as HDFS's {@code FSPermissionChecker} finds its caller).
   */
  private static UserGroupInformation caller() throws ServiceException {
    UserGroupInformation remote = Server.getRemoteUser();
    if (remote != null) {
      return remote;
    }
    try {
      return UserGroupInformation.getCurrentUser();
    } catch (IOException e) {
      throw new ServiceException(e);
    }
  }

  private static String masterUser() throws ServiceException {
    try {
      return UserGroupInformation.getLoginUser().getShortUserName();
    } catch (IOException e) {
      throw new ServiceException(e);
    }
  }

  /** The caller, once {@code mpcache.admin.acl} admits it to {@code operation}. */
  private UserGroupInformation operator(String operation) throws ServiceException {
    UserGroupInformation user = caller();
    try {
      acls.checkOperator(user, operation);
    } catch (AccessControlException e) {
      throw new ServiceException(e);
    }
    return user;
  }

  /** Checks that the read ACL or the operators' ACL admits the caller to {@code operation}. */
  private void reader(String operation) throws ServiceException {
    try {
      acls.checkRead(caller(), operation);
    } catch (AccessControlException e) {
      throw new ServiceException(e);
    }
  }

  @Override
  public ReportResponseProto report(RpcController c, ReportRequestProto req)
      throws ServiceException {
    reader("report");
    return status.report();
  }

  @Override
  public DatasetsResponseProto datasets(RpcController c, DatasetsRequestProto req)
      throws ServiceException {
    reader("datasets");
    return DatasetsResponseProto.newBuilder()
        .addAllDatasets(status.datasets(req.getPathFilter())).build();
  }

  @Override
  public ExplainResponseProto explain(RpcController c, ExplainRequestProto req)
      throws ServiceException {
    reader("explain");
    return status.explain(req.getPath());
  }

  @Override
  public EvictResponseProto evict(RpcController c, EvictRequestProto req)
      throws ServiceException {
    UserGroupInformation user = operator("evict");
    List<String> ids = new ArrayList<>();
    for (DatasetStatusProto d : status.explain(req.getPath()).getDatasetsList()) {
      ids.add(d.getDatasetId());
    }
    if (ids.isEmpty()) {
      throw failure("The master knows no dataset with input path " + req.getPath()
          + "; run mpcache admin datasets to list the known ones.");
    }
    int blocks = arbitrator.evictDatasets(ids);
    LOG.info("{} evicted {}: {} block replicas ordered out", user.getShortUserName(), ids,
        blocks);
    return EvictResponseProto.newBuilder().addAllDatasetIds(ids).setBlocks(blocks).build();
  }

  @Override
  public PrefetchResponseProto prefetch(RpcController c, PrefetchRequestProto req)
      throws ServiceException {
    UserGroupInformation user = operator("prefetch");
    try {
      PrefetchResponseProto r = prefetch.plan(req.getPath(), req.getForce(), user);
      LOG.info("Prefetch of {}{} by {}: {} blocks queued, {} already cached, {} unplaced",
          r.getDatasetId(), req.getForce() ? " (forced)" : "", user.getShortUserName(),
          r.getQueued(), r.getAlreadyCached(), r.getUnplaced());
      return r;
    } catch (FileNotFoundException e) {
      throw failure("Nothing to prefetch: " + e.getMessage());
    } catch (AccessControlException e) {
      throw new ServiceException(new AccessControlException("Cannot prefetch " + req.getPath()
          + " as " + user.getShortUserName() + ": " + e.getMessage()));
    } catch (RemoteException e) {
      if (!AuthorizationException.class.getName().equals(e.getClassName())) {
        throw new ServiceException(e);
      }
      throw new ServiceException(new AccessControlException("Cannot prefetch " + req.getPath()
          + " as " + user.getShortUserName() + ": the NameNode does not let the master act for "
          + "that user (" + e.getMessage().split("\n", 2)[0] + "); allow it with "
          + "hadoop.proxyuser." + masterUser() + ".hosts and .groups in the NameNode's "
          + "core-site.xml."));
    } catch (IOException e) {
      throw new ServiceException(e);
    }
  }

  @Override
  public DecommissionResponseProto decommission(RpcController c, DecommissionRequestProto req)
      throws ServiceException {
    UserGroupInformation user = operator("decommission");
    String id = resolveSlave(req.getSlave());
    int blocks = arbitrator.decommission(id, !req.getCancel());
    LOG.info("{} {} slave {}: {} block replicas ordered out", user.getShortUserName(),
        req.getCancel() ? "recommissioned" : "decommissioned", id, blocks);
    return DecommissionResponseProto.newBuilder().setSlaveId(id)
        .setDecommissioning(registry.isDecommissioning(id)).setBlocksToEvict(blocks).build();
  }

  /** A registered slave by id, or by host when exactly one slave runs there. */
  private String resolveSlave(String name) throws ServiceException {
    List<String> byHost = new ArrayList<>();
    List<String> known = new ArrayList<>();
    for (SlaveInfoProto s : registry.liveSlaves()) {
      if (s.getSlaveId().equals(name)) {
        return name;
      }
      if (s.getHost().equals(name)) {
        byHost.add(s.getSlaveId());
      }
      known.add(s.getSlaveId());
    }
    if (byHost.size() == 1) {
      return byHost.get(0);
    }
    throw failure(byHost.isEmpty() ? "No live slave is called " + name + "; live slaves: "
        + (known.isEmpty() ? "none" : String.join(", ", known))
        : "Host " + name + " runs several slaves (" + String.join(", ", byHost)
        + "); name one by its id.");
  }

  @Override
  public RefreshResponseProto refresh(RpcController c, RefreshRequestProto req)
      throws ServiceException {
    operator("refresh");
    try {
      return refresher.refresh();
    } catch (IOException | IllegalArgumentException e) {
      throw failure("Refresh failed, nothing changed: " + e.getMessage());
    }
  }

  /**
   * An operator pins or unpins a path, or sets a time to live or a quota; the master checkpoints
   * it with the rest of its state.
   */
  @Override
  public ControlResponseProto control(RpcController c, ControlRequestProto req)
      throws ServiceException {
    UserGroupInformation user = operator(req.getAction().name().toLowerCase(Locale.ROOT));
    boolean changed;
    try {
      switch (req.getAction()) {
        case PIN:
        case UNPIN:
          changed = arbitrator.pin(required(req.hasPath(), req.getPath(), "path"),
              req.getAction() == ControlRequestProto.Action.PIN);
          break;
        case TTL:
          changed = arbitrator.setTtl(required(req.hasPath(), req.getPath(), "path"),
              req.getTtlMs());
          break;
        case QUOTA:
          if (!req.hasQuota()) {
            throw new IllegalArgumentException("field quota is missing");
          }
          changed = arbitrator.setQuota(req.getQuota().getKind(), req.getQuota().getName(),
              req.getQuota().getLimitBytes());
          break;
        default:
          throw new IllegalArgumentException("unknown action " + req.getAction());
      }
    } catch (IllegalArgumentException e) {
      throw failure(req.getAction() + " refused: " + e.getMessage());
    }
    LOG.info("{} {}: {}", user.getShortUserName(), TextFormat.shortDebugString(req),
        changed ? "changed" : "unchanged");
    return ControlResponseProto.newBuilder().setChanged(changed)
        .setControls(arbitrator.controls()).build();
  }

  private static String required(boolean present, String value, String field) {
    if (!present) {
      throw new IllegalArgumentException("field " + field + " is missing");
    }
    return value;
  }

  private static ServiceException failure(String message) {
    return new ServiceException(new RequestRefusedException(message));
  }
}
