package org.mpcache.master.registry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.hadoop.security.SecurityUtil;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.master.MasterConfigKeys;

/**
 * Decides who may register a slave, and who may then speak for a registered slave id. Clients
 * send a block's reads to the slave registered beside a DataNode holding it and trust the bytes
 * it returns (their CRCs come from the slave too), so the master's list of slaves is what a rogue
 * process would have to get into: this policy keeps it to the slave service identity, on the host
 * it claims.
 *
 * <p>A registration is accepted when, in this order:
 * <ol>
 *   <li>the caller is the slave service identity: with Kerberos, authenticated by Kerberos (not a
 *       token, not on behalf of another user) as {@code mpcache.slave.kerberos.principal} with
 *       {@code _HOST} standing for the host the slave claims (as Hadoop binds a daemon's principal
 *       to its host, {@link SecurityUtil#getServerPrincipal(String, String)}), or as a user of
 *       {@code mpcache.master.slave.users}; without Kerberos, as a user of that list (by default
 *       the master's own user);</li>
 *   <li>unless the address check is off ({@code mpcache.master.slave.registration.ip-hostname-check}),
 *       the host the slave advertises to clients, and the host of the DataNode it claims to sit
 *       beside, resolve to the address the call comes from: addresses are compared, not names, and
 *       any two addresses of the master's own host count as one host (a slave there may call over
 *       loopback and advertise the host's name);</li>
 *   <li>the slave id is free, or held by a live slave registered by the same user from the same
 *       host (a restart, which replaces it).</li>
 * </ol>
 * Every later call under a registered id must come from the identity that registered it.
 *
 * <p>Pure: it resolves no names and reads no clock; the caller passes the addresses a claimed
 * host resolves to and a predicate telling the master's own addresses. Immutable; thread-safe.
 */
public final class SlaveAdmission {

  /** What the policy answers; everything but {@link #ACCEPTED} is a refusal. */
  public enum Outcome {
    ACCEPTED,
    /** The caller is not the slave service identity. */
    NOT_SLAVE_IDENTITY,
    /** The host the slave advertises resolves to no usable address. */
    HOST_UNRESOLVED,
    /** The host the slave advertises is not the host the call comes from. */
    HOST_MISMATCH,
    /** The DataNode the slave claims to sit beside is on another host than the call's. */
    DATANODE_HOST_MISMATCH,
    /** The slave id is held by a live slave registered by another user. */
    ID_HELD_BY_ANOTHER_USER,
    /** The slave id is held by a live slave registered from another host. */
    ID_HELD_FROM_ANOTHER_HOST,
    /** A call under a registered slave id from someone other than who registered it. */
    NOT_THE_REGISTERED_SLAVE
  }

  /** An outcome and, for a refusal, a message naming the reason and the key that governs it. */
  public record Verdict(Outcome outcome, String message) {
    static final Verdict ACCEPT = new Verdict(Outcome.ACCEPTED, "accepted");

    public boolean accepted() {
      return outcome == Outcome.ACCEPTED;
    }
  }

  /**
   * Who is calling, as the RPC layer authenticated it.
   *
   * @param user the full user name (a Kerberos principal's full name)
   * @param shortUser the short name ({@code hadoop.security.auth_to_local})
   * @param kerberos whether the caller authenticated with Kerberos
   * @param proxied whether the caller acts on behalf of another user
   * @param remote the address the call comes from; null when unknown
   */
  public record Caller(String user, String shortUser, boolean kerberos, boolean proxied,
      InetAddress remote) {
    public Caller {
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(shortUser, "shortUser");
    }
  }

  /**
   * What a registering slave says of itself.
   *
   * @param host the host it advertises to clients
   * @param hostAddresses the addresses {@code host} resolves to (empty: none)
   * @param datanodeHost the host of the DataNode it claims to sit beside; null when it names none
   * @param datanodeAddresses the addresses {@code datanodeHost} resolves to
   */
  public record Claim(String host, List<InetAddress> hostAddresses, String datanodeHost,
      List<InetAddress> datanodeAddresses) {
    public Claim {
      Objects.requireNonNull(host, "host");
      hostAddresses = List.copyOf(hostAddresses);
      datanodeAddresses = List.copyOf(datanodeAddresses);
    }
  }

  /** The value of {@code mpcache.master.slave.users} that admits every user. */
  public static final String ANY_USER = "*";

  private final String principalPattern;
  private final Set<String> users;
  private final boolean addressCheck;
  private final Predicate<InetAddress> ownAddress;

  /**
   * @param principalPattern the slaves' principal ({@code _HOST} allowed) when the cluster uses
   *     Kerberos; null without Kerberos
   * @param users short names of the other users who may register slaves; {@value #ANY_USER}
   *     admits every user
   * @param addressCheck whether claimed hosts must resolve to the caller's address
   * @param ownAddress whether an address is one of the master's own host
   */
  public SlaveAdmission(String principalPattern, Collection<String> users, boolean addressCheck,
      Predicate<InetAddress> ownAddress) {
    this.principalPattern = principalPattern;
    this.users = Set.copyOf(users);
    this.addressCheck = addressCheck;
    this.ownAddress = ownAddress;
  }

  /** Whether claimed hosts are checked against the caller's address. */
  public boolean addressCheck() {
    return addressCheck;
  }

  /**
   * The identity a caller's registration binds its slave id to: its user, and its address when
   * addresses are checked (without the check, a multi-homed or NATed slave may call from any).
   */
  public SlaveIdentity identity(Caller caller) {
    return new SlaveIdentity(caller.user(), addressCheck ? caller.remote() : null);
  }

  /**
   * May {@code caller} register a slave that claims {@code claim}, given who holds the slave id now?
   *
   * @param holder the identity of the live slave registered under the id, if any
   */
  public Verdict admit(Caller caller, Claim claim, Optional<SlaveIdentity> holder) {
    Verdict who = serviceIdentity(caller, claim.host());
    if (!who.accepted()) {
      return who;
    }
    if (addressCheck) {
      Verdict where = hostOf(caller, claim);
      if (!where.accepted()) {
        return where;
      }
    }
    if (holder.isPresent()) {
      SlaveIdentity h = holder.get();
      if (!h.user().equals(caller.user())) {
        return refuse(Outcome.ID_HELD_BY_ANOTHER_USER, "the slave id is held by a live slave "
            + "registered by " + h.user() + ", not " + caller.user() + "; a slave id is bound to "
            + "its user until it unregisters or expires (mpcache.master.slave.expiry.ms)");
      }
      if (addressCheck && !sameHost(caller.remote(), h.address())) {
        return refuse(Outcome.ID_HELD_FROM_ANOTHER_HOST, "the slave id is held by a live slave "
            + "registered from " + text(h.address()) + ", not " + text(caller.remote())
            + "; a slave id is bound to its host until it unregisters or expires "
            + "(mpcache.master.slave.expiry.ms)");
      }
    }
    return Verdict.ACCEPT;
  }

  /**
   * Is {@code caller} the slave service identity for a slave on {@code host} (the host it claims,
   * as text: nothing is resolved)? The first part of {@link #admit}, which a registration can be
   * refused on before the hosts it claims are resolved.
   */
  public Verdict mayRegister(Caller caller, String host) {
    return serviceIdentity(caller, host);
  }

  /**
   * May {@code caller} make a call under a slave id (a heartbeat, a report, a request)?
   *
   * @param holder the identity that registered the id; empty when the id is not registered (the
   *     call is then answered with {@code reregister})
   */
  public Verdict mayCallAs(Caller caller, Optional<SlaveIdentity> holder) {
    if (holder.isEmpty()) {
      return Verdict.ACCEPT;
    }
    SlaveIdentity h = holder.get();
    if (!h.user().equals(caller.user())
        || addressCheck && !sameHost(caller.remote(), h.address())) {
      return refuse(Outcome.NOT_THE_REGISTERED_SLAVE, "the slave id was registered by "
          + h + ", and " + caller.user() + " from " + text(caller.remote())
          + " may not speak for it");
    }
    return Verdict.ACCEPT;
  }

  private Verdict serviceIdentity(Caller caller, String host) {
    if (caller.proxied()) {
      return refuse(Outcome.NOT_SLAVE_IDENTITY, caller.user() + " calls on behalf of another "
          + "user; a slave calls as itself");
    }
    if (principalPattern != null && !caller.kerberos()) {
      return refuse(Outcome.NOT_SLAVE_IDENTITY, caller.user() + " did not authenticate with "
          + "Kerberos; a slave logs in from its keytab (mpcache.slave.keytab.file)");
    }
    if (users.contains(ANY_USER) || users.contains(caller.shortUser())) {
      return Verdict.ACCEPT;
    }
    String expected = principalPattern == null ? null : principalFor(host);
    if (expected != null && expected.equals(caller.user())) {
      return Verdict.ACCEPT;
    }
    return refuse(Outcome.NOT_SLAVE_IDENTITY, caller.user() + " is not the slave service "
        + "identity: expected " + (expected == null ? ""
            : "principal " + expected + " (" + MpCacheConfigKeys.SLAVE_KERBEROS_PRINCIPAL_KEY
                + " for host " + host + ") or ")
        + "a user of " + MasterConfigKeys.SLAVE_USERS_KEY + " " + new TreeSet<>(users));
  }

  /** The slave principal for {@code host}; null for a wildcard host, which no slave can claim. */
  private String principalFor(String host) {
    if (host.equals("0.0.0.0")) {
      return null;
    }
    try {
      return SecurityUtil.getServerPrincipal(principalPattern, host);
    } catch (IOException e) {
      // Only thrown when the local host name is needed, which a named host never needs.
      throw new UncheckedIOException(e);
    }
  }

  private Verdict hostOf(Caller caller, Claim claim) {
    List<InetAddress> usable = claim.hostAddresses().stream().filter(SlaveAdmission::usable)
        .toList();
    if (usable.isEmpty()) {
      return refuse(Outcome.HOST_UNRESOLVED, "host " + claim.host() + " resolves to no address "
          + "clients could connect to; " + checkHint());
    }
    if (!anySameHost(caller.remote(), usable)) {
      return refuse(Outcome.HOST_MISMATCH, "the slave advertises host " + claim.host() + " "
          + texts(usable) + " but calls from " + text(caller.remote()) + "; " + checkHint());
    }
    if (claim.datanodeHost() != null && !anySameHost(caller.remote(),
        claim.datanodeAddresses().stream().filter(SlaveAdmission::usable).toList())) {
      return refuse(Outcome.DATANODE_HOST_MISMATCH, "the slave claims to sit beside the DataNode "
          + "on " + claim.datanodeHost() + " " + texts(claim.datanodeAddresses())
          + " but calls from " + text(caller.remote()) + "; " + checkHint());
    }
    return Verdict.ACCEPT;
  }

  private static String checkHint() {
    return "a slave must advertise its own host. Set " + MasterConfigKeys.SLAVE_IP_CHECK_KEY
        + "=false only when slaves reach the master through NAT or another interface";
  }

  /** An address a client could connect to: not a wildcard, not a multicast group. */
  private static boolean usable(InetAddress a) {
    return !a.isAnyLocalAddress() && !a.isMulticastAddress();
  }

  private boolean anySameHost(InetAddress remote, List<InetAddress> addresses) {
    for (InetAddress a : addresses) {
      if (sameHost(remote, a)) {
        return true;
      }
    }
    return false;
  }

  /** Equal addresses, or two addresses of the master's own host. */
  private boolean sameHost(InetAddress a, InetAddress b) {
    if (a == null || b == null) {
      return false;
    }
    return a.equals(b) || ownAddress.test(a) && ownAddress.test(b);
  }

  private static Verdict refuse(Outcome outcome, String message) {
    return new Verdict(outcome, message);
  }

  private static String text(InetAddress a) {
    return a == null ? "an unknown address" : a.getHostAddress();
  }

  private static String texts(List<InetAddress> addresses) {
    return addresses.stream().map(InetAddress::getHostAddress).toList().toString();
  }
}
