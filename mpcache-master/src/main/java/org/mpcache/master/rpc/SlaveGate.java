package org.mpcache.master.rpc;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.common.protocolPB.RequestRefusedException;
import org.mpcache.master.registry.SlaveAdmission;
import org.mpcache.master.registry.SlaveAdmission.Caller;
import org.mpcache.master.registry.SlaveAdmission.Claim;
import org.mpcache.master.registry.SlaveAdmission.Verdict;
import org.mpcache.master.registry.SlaveIdentity;
import org.mpcache.master.registry.SlaveRefusals;
import org.mpcache.master.registry.SlaveRegistry;

/**
 * The mechanism around {@link SlaveAdmission} on the slave-master protocol: it takes the caller's
 * authenticated user and address from the RPC call ({@link Server#getRemoteUser()},
 * {@link Server#getRemoteIp()}), refuses a registration from anyone but the slave service identity
 * before anything else (so that no caller can make the master resolve names of its choosing),
 * resolves the hosts a registering slave claims, asks the policy,
 * registers the slave bound to its identity, and refuses, counts and logs ({@link SlaveRefusals})
 * everything else.
 *
 * <p>Thread-safe: it holds no mutable state; name resolution runs with no lock held, and the
 * registration is a compare-and-set on the registry ({@link SlaveRegistry#register}).
 */
public final class SlaveGate {
  private final SlaveRegistry registry;
  private final SlaveAdmission admission;
  private final SlaveRefusals refusals;
  private final Supplier<Caller> callers;
  private final Function<String, List<InetAddress>> resolver;

  /** A gate for the master's RPC server: callers as the RPC layer authenticated them, DNS. */
  public SlaveGate(SlaveRegistry registry, SlaveAdmission admission, SlaveRefusals refusals) {
    this(registry, admission, refusals, SlaveGate::rpcCaller, SlaveGate::resolve);
  }

  /**
   * @param callers who is calling (in tests, a fixed caller)
   * @param resolver the addresses a host name resolves to; empty when it does not resolve
   */
  SlaveGate(SlaveRegistry registry, SlaveAdmission admission, SlaveRefusals refusals,
      Supplier<Caller> callers, Function<String, List<InetAddress>> resolver) {
    this.registry = registry;
    this.admission = admission;
    this.refusals = refusals;
    this.callers = callers;
    this.resolver = resolver;
  }

  /**
   * Registers a slave if the caller may: see {@link SlaveAdmission}.
   *
   * @throws RequestRefusedException naming the reason when it may not
   */
  void register(SlaveInfoProto info, SpaceReportProto space)
      throws RequestRefusedException {
    Caller caller = callers.get();
    Verdict who = admission.mayRegister(caller, info.getHost());
    if (!who.accepted()) {
      throw new RequestRefusedException(
          refusals.refused("registerSlave", info.getSlaveId(), caller, who));
    }
    Claim claim = claim(info);
    while (true) {
      Optional<SlaveIdentity> holder = registry.holder(info.getSlaveId());
      Verdict v = admission.admit(caller, claim, holder);
      if (!v.accepted()) {
        throw new RequestRefusedException(
            refusals.refused("registerSlave", info.getSlaveId(), caller, v));
      }
      if (registry.register(info, space, admission.identity(caller), holder)) {
        return;
      }
      // Another registration of the id came in between: decide again against its holder.
    }
  }

  /**
   * Refuses a call under {@code slaveId} from anyone but the identity that registered it.
   *
   * @param call the method, for the message
   */
  void checkCall(String call, String slaveId) throws RequestRefusedException {
    Caller caller = callers.get();
    Verdict v = admission.mayCallAs(caller, registry.holder(slaveId));
    if (!v.accepted()) {
      throw new RequestRefusedException(refusals.refused(call, slaveId, caller, v));
    }
  }

  /** What the slave claims, with its hosts resolved when the policy compares addresses. */
  private Claim claim(SlaveInfoProto info) {
    String datanodeHost = info.hasDatanodeAddress() && !info.getDatanodeAddress().isEmpty()
        ? hostOf(info.getDatanodeAddress()) : null;
    if (!admission.addressCheck()) {
      return new Claim(info.getHost(), List.of(), datanodeHost, List.of());
    }
    return new Claim(info.getHost(), resolver.apply(info.getHost()), datanodeHost,
        datanodeHost == null ? List.of() : resolver.apply(datanodeHost));
  }

  /** The host of a {@code host:port} address (parsed, not resolved); the whole text if none. */
  private static String hostOf(String address) {
    try {
      String host = new URI("mpcache://" + address).getHost();
      return host == null ? address : host;
    } catch (URISyntaxException e) {
      return address;
    }
  }

  private static List<InetAddress> resolve(String host) {
    try {
      return Arrays.asList(InetAddress.getAllByName(host));
    } catch (UnknownHostException | SecurityException e) {
      return List.of();
    }
  }

  /** The caller of the RPC call this handler thread serves. */
  private static Caller rpcCaller() {
    UserGroupInformation ugi = Server.getRemoteUser();
    if (ugi == null) {
      throw new IllegalStateException("not serving an RPC call");
    }
    UserGroupInformation real = ugi.getRealUser() != null ? ugi.getRealUser() : ugi;
    return new Caller(ugi.getUserName(), ugi.getShortUserName(),
        real.getAuthenticationMethod() == AuthenticationMethod.KERBEROS,
        ugi.getRealUser() != null, Server.getRemoteIp());
  }
}
