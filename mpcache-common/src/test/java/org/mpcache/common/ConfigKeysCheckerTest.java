package org.mpcache.common;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The sync check fails on each kind of disagreement, naming the key, and passes on agreement. */
class ConfigKeysCheckerTest {
  private static final String FILE = "checker-sample-default.xml";

  /** Declares every key of the sample file, as it describes them. */
  static final class InSync {
    static final String COUNT_KEY = "sample.count";
    static final int COUNT_DEFAULT = 5;
    static final String DIRS_KEY = "sample.dirs";
  }

  /** The undescribed key, split off so that {@link InSync} can be checked alone. */
  static final class Undescribed {
    static final String UNDESCRIBED_KEY = "sample.undescribed";
    static final String UNDESCRIBED_DEFAULT = "x";
  }

  static final class WrongDefault {
    static final String COUNT_KEY = "sample.count";
    static final int COUNT_DEFAULT = 6;
    static final String DIRS_KEY = "sample.dirs";
  }

  static final class Undeclared {
    static final String MISSING_KEY = "sample.missing";
  }

  private static String failure(Class<?>... classes) {
    return assertThrows(AssertionError.class,
        () -> ConfigKeysChecker.assertInSync(FILE, classes)).getMessage();
  }

  @Test
  void assertInSync_staleProperty_failsNamingIt() {
    String m = failure(InSync.class);
    assertTrue(m.contains("sample.undescribed") && m.contains("stale"), m);
  }

  @Test
  void assertInSync_propertyWithoutDescription_failsNamingIt() {
    String m = failure(InSync.class, Undescribed.class);
    assertTrue(m.contains("sample.undescribed has no description"), m);
    assertTrue(!m.contains("sample.count"), m);
  }

  @Test
  void assertInSync_otherDefault_failsNamingBothValues() {
    String m = failure(WrongDefault.class, Undescribed.class);
    assertTrue(m.contains("sample.count") && m.contains("'5'") && m.contains("'6'"), m);
  }

  @Test
  void assertInSync_keyNotInFile_failsNamingIt() {
    String m = failure(InSync.class, Undescribed.class, Undeclared.class);
    assertTrue(m.contains("sample.missing is not in " + FILE), m);
  }

  @Test
  void defaults_missingFile_failsNamingIt() {
    String m = assertThrows(AssertionError.class,
        () -> ConfigKeysChecker.defaults("no-such-default.xml")).getMessage();
    assertTrue(m.contains("no-such-default.xml"), m);
  }
}
