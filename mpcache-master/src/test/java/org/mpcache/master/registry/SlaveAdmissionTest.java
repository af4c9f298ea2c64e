package org.mpcache.master.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.mpcache.master.registry.SlaveAdmission.Caller;
import org.mpcache.master.registry.SlaveAdmission.Claim;
import org.mpcache.master.registry.SlaveAdmission.Outcome;
import org.mpcache.master.registry.SlaveAdmission.Verdict;

/**
 * Who may register a slave and speak for its id: the pure policy, given the caller, the address
 * its call comes from, the hosts the slave claims (already resolved) and the identity holding the
 * id.
 */
class SlaveAdmissionTest {
  private static final String REALM = "EXAMPLE.COM";
  private static final String PATTERN = "mpcache/_HOST@" + REALM;
  private static final InetAddress NODE1 = ip("10.0.0.1");
  private static final InetAddress NODE2 = ip("10.0.0.2");
  /** The master's own host: its LAN address and loopback. */
  private static final InetAddress MASTER = ip("10.0.0.9");
  private static final InetAddress LOOPBACK = ip("127.0.0.1");
  private static final Set<InetAddress> MASTER_ADDRESSES = Set.of(MASTER, LOOPBACK);

  private static InetAddress ip(String literal) {
    try {
      return InetAddress.getByName(literal);
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  private static SlaveAdmission kerberos(String... users) {
    return new SlaveAdmission(PATTERN, List.of(users), true, MASTER_ADDRESSES::contains);
  }

  private static SlaveAdmission simple(boolean addressCheck, String... users) {
    return new SlaveAdmission(null, List.of(users), addressCheck, MASTER_ADDRESSES::contains);
  }

  /** A Kerberos-authenticated caller. */
  private static Caller principal(String principal, InetAddress from) {
    return new Caller(principal, principal.split("[/@]")[0], true, false, from);
  }

  /** A caller under simple authentication. */
  private static Caller user(String name, InetAddress from) {
    return new Caller(name, name, false, false, from);
  }

  /** A slave on {@code host} beside the DataNode on the same host. */
  private static Claim on(String host, InetAddress address) {
    return new Claim(host, List.of(address), host, List.of(address));
  }

  private static void assertRefused(Outcome expected, Verdict v) {
    assertEquals(expected, v.outcome(), v.message());
  }

  @Test
  void admit_slavePrincipalOfTheClaimedHostFromThatHost_accepted() {
    Verdict v = kerberos().admit(principal("mpcache/node1.example.com@" + REALM, NODE1),
        on("node1.example.com", NODE1), Optional.empty());
    assertTrue(v.accepted(), v.message());
  }

  @Test
  void admit_claimedHostInUpperCase_matchesThePrincipalsLowerCaseHost() {
    Verdict v = kerberos().admit(principal("mpcache/node1.example.com@" + REALM, NODE1),
        on("NODE1.example.com", NODE1), Optional.empty());
    assertTrue(v.accepted(), v.message());
  }

  @Test
  void admit_userPrincipal_refusedNamingTheExpectedPrincipalAndTheKeys() {
    Verdict v = kerberos().admit(principal("alice@" + REALM, NODE1),
        on("node1.example.com", NODE1), Optional.empty());
    assertRefused(Outcome.NOT_SLAVE_IDENTITY, v);
    assertTrue(v.message().contains("mpcache/node1.example.com@" + REALM), v.message());
    assertTrue(v.message().contains("mpcache.slave.kerberos.principal"), v.message());
    assertTrue(v.message().contains("mpcache.master.slave.users"), v.message());
  }

  @Test
  void admit_slavePrincipalOfAnotherHost_refused() {
    Verdict v = kerberos().admit(principal("mpcache/node2.example.com@" + REALM, NODE1),
        on("node1.example.com", NODE1), Optional.empty());
    assertRefused(Outcome.NOT_SLAVE_IDENTITY, v);
  }

  @Test
  void admit_slavePrincipalByToken_refused() {
    Caller token = new Caller("mpcache/node1.example.com@" + REALM, "mpcache", false, false,
        NODE1);
    assertRefused(Outcome.NOT_SLAVE_IDENTITY,
        kerberos().admit(token, on("node1.example.com", NODE1), Optional.empty()));
  }

  @Test
  void admit_proxiedCaller_refusedEvenWhenItsUserIsListed() {
    Caller proxied = new Caller("mpcache", "mpcache", false, true, NODE1);
    assertRefused(Outcome.NOT_SLAVE_IDENTITY,
        simple(true, "mpcache").admit(proxied, on("node1", NODE1), Optional.empty()));
  }

  @Test
  void admit_listedUserWithKerberos_acceptedFromAnyHostItClaimsTruly() {
    Verdict v = kerberos("svc").admit(principal("svc/anything@" + REALM, NODE2),
        on("node2", NODE2), Optional.empty());
    assertTrue(v.accepted(), v.message());
  }

  @Test
  void admit_simpleAuthUnlistedUser_refused() {
    assertRefused(Outcome.NOT_SLAVE_IDENTITY,
        simple(true, "mpcache").admit(user("mallory", NODE1), on("node1", NODE1),
            Optional.empty()));
  }

  @Test
  void admit_anyUserWildcard_acceptsAnyone() {
    Verdict v = simple(true, SlaveAdmission.ANY_USER).admit(user("mallory", NODE1),
        on("node1", NODE1), Optional.empty());
    assertTrue(v.accepted(), v.message());
  }

  @Test
  void admit_hostResolvingElsewhere_refusedNamingTheCheckKey() {
    Verdict v = kerberos().admit(principal("mpcache/node2@" + REALM, NODE1), on("node2", NODE2),
        Optional.empty());
    assertRefused(Outcome.HOST_MISMATCH, v);
    assertTrue(v.message().contains("10.0.0.1") && v.message().contains("10.0.0.2"),
        v.message());
    assertTrue(v.message().contains("mpcache.master.slave.registration.ip-hostname-check"),
        v.message());
  }

  @Test
  void admit_hostAmongSeveralAddresses_accepted() {
    Claim multiHomed = new Claim("node1", List.of(NODE2, NODE1), null, List.of());
    assertTrue(simple(true, "mpcache").admit(user("mpcache", NODE1), multiHomed,
        Optional.empty()).accepted());
  }

  @Test
  void admit_unresolvedHost_refused() {
    assertRefused(Outcome.HOST_UNRESOLVED, simple(true, "mpcache").admit(user("mpcache", NODE1),
        new Claim("nowhere", List.of(), null, List.of()), Optional.empty()));
  }

  @Test
  void admit_wildcardHost_refusedAsUnresolved() {
    assertRefused(Outcome.HOST_UNRESOLVED, simple(true, "mpcache").admit(user("mpcache",
        LOOPBACK), new Claim("0.0.0.0", List.of(ip("0.0.0.0")), null, List.of()),
        Optional.empty()));
  }

  @Test
  void admit_besideAnotherHostsDataNode_refused() {
    Claim claim = new Claim("node1", List.of(NODE1), "node2", List.of(NODE2));
    assertRefused(Outcome.DATANODE_HOST_MISMATCH,
        simple(true, "mpcache").admit(user("mpcache", NODE1), claim, Optional.empty()));
  }

  @Test
  void admit_unresolvedDataNodeHost_refused() {
    Claim claim = new Claim("node1", List.of(NODE1), "nowhere", List.of());
    assertRefused(Outcome.DATANODE_HOST_MISMATCH,
        simple(true, "mpcache").admit(user("mpcache", NODE1), claim, Optional.empty()));
  }

  @Test
  void admit_slaveOnTheMastersHostCallingOverLoopback_accepted() {
    Verdict v = simple(true, "mpcache").admit(user("mpcache", LOOPBACK), on("master", MASTER),
        Optional.empty());
    assertTrue(v.accepted(), v.message());
  }

  @Test
  void admit_loopbackClaimFromAnotherHost_refused() {
    assertRefused(Outcome.HOST_MISMATCH, simple(true, "mpcache").admit(user("mpcache", NODE1),
        on("localhost", LOOPBACK), Optional.empty()));
  }

  @Test
  void admit_addressCheckOff_anyHostAccepted() {
    Claim claim = new Claim("node2", List.of(), "node3", List.of());
    assertTrue(simple(false, "mpcache").admit(user("mpcache", NODE1), claim, Optional.empty())
        .accepted());
  }

  @Test
  void admit_idHeldByAnotherUser_refused() {
    SlaveIdentity holder = new SlaveIdentity("mpcache/node1@" + REALM, NODE1);
    Verdict v = kerberos("svc").admit(principal("svc@" + REALM, NODE1), on("node1", NODE1),
        Optional.of(holder));
    assertRefused(Outcome.ID_HELD_BY_ANOTHER_USER, v);
    assertTrue(v.message().contains("mpcache/node1@" + REALM), v.message());
  }

  @Test
  void admit_idHeldFromAnotherHost_refused() {
    SlaveIdentity holder = new SlaveIdentity("svc@" + REALM, NODE2);
    assertRefused(Outcome.ID_HELD_FROM_ANOTHER_HOST, kerberos("svc").admit(
        principal("svc@" + REALM, NODE1), on("node1", NODE1), Optional.of(holder)));
  }

  @Test
  void admit_restartFromTheSameHostAndIdentity_accepted() {
    SlaveAdmission a = kerberos();
    Caller slave = principal("mpcache/node1@" + REALM, NODE1);
    Verdict v = a.admit(slave, on("node1", NODE1), Optional.of(a.identity(slave)));
    assertTrue(v.accepted(), v.message());
  }

  @Test
  void admit_addressCheckOff_idHeldFromAnotherAddressBySameUser_accepted() {
    SlaveAdmission a = simple(false, "mpcache");
    Verdict v = a.admit(user("mpcache", NODE2), on("node1", NODE1),
        Optional.of(a.identity(user("mpcache", NODE1))));
    assertTrue(v.accepted(), v.message());
  }

  @Test
  void identity_addressCheckOff_bindsTheUserOnly() {
    assertNull(simple(false, "mpcache").identity(user("mpcache", NODE1)).address());
    assertEquals(NODE1, simple(true, "mpcache").identity(user("mpcache", NODE1)).address());
  }

  @Test
  void mayCallAs_theRegisteringIdentity_accepted() {
    SlaveAdmission a = simple(true, "mpcache");
    Caller slave = user("mpcache", NODE1);
    assertTrue(a.mayCallAs(slave, Optional.of(a.identity(slave))).accepted());
  }

  @Test
  void mayCallAs_anotherUser_refused() {
    SlaveAdmission a = simple(true, "mpcache");
    Verdict v = a.mayCallAs(user("mallory", NODE1),
        Optional.of(a.identity(user("mpcache", NODE1))));
    assertRefused(Outcome.NOT_THE_REGISTERED_SLAVE, v);
    assertTrue(v.message().contains("mallory"), v.message());
  }

  @Test
  void mayCallAs_sameUserFromAnotherHost_refused() {
    SlaveAdmission a = simple(true, "mpcache");
    assertRefused(Outcome.NOT_THE_REGISTERED_SLAVE, a.mayCallAs(user("mpcache", NODE2),
        Optional.of(a.identity(user("mpcache", NODE1)))));
  }

  @Test
  void mayCallAs_unregisteredId_acceptedToBeToldToRegister() {
    assertTrue(simple(true, "mpcache").mayCallAs(user("mallory", NODE2), Optional.empty())
        .accepted());
  }
}
