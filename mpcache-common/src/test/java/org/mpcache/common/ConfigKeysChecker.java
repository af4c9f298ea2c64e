package org.mpcache.common;

import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Keeps a module's {@code *ConfigKeys} classes and its defaults file in step, both ways: every
 * {@code *_KEY} constant must be described there, with a description and the value of its
 * {@code *_DEFAULT} constant (or an empty value when it has none), and every property of the file
 * must be a key one of the classes declares (none is stale). Test support, shared through the
 * test jar.
 */
public final class ConfigKeysChecker {

  /** One property of a defaults file. */
  public static final class Property {
    public final String value;
    public final String description;

    Property(String value, String description) {
      this.value = value;
      this.description = description;
    }
  }

  private ConfigKeysChecker() {
  }

  /** The properties of the defaults file {@code resource} on the classpath, by name. */
  public static Map<String, Property> defaults(String resource) throws Exception {
    Map<String, Property> out = new LinkedHashMap<>();
    try (InputStream in = ConfigKeysChecker.class.getClassLoader()
        .getResourceAsStream(resource)) {
      if (in == null) {
        throw new AssertionError(resource + " is not on the classpath");
      }
      Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
      NodeList props = doc.getElementsByTagName("property");
      for (int i = 0; i < props.getLength(); i++) {
        Element p = (Element) props.item(i);
        String name = text(p, "name");
        if (out.put(name, new Property(text(p, "value"), text(p, "description"))) != null) {
          throw new AssertionError(name + " is described twice in " + resource);
        }
      }
    }
    return out;
  }

  private static String text(Element e, String tag) {
    NodeList l = e.getElementsByTagName(tag);
    return l.getLength() == 0 ? "" : l.item(0).getTextContent().trim();
  }

  /** The configuration keys a class declares: its static String fields named {@code *_KEY}. */
  public static Set<String> keysOf(Class<?> keys) throws IllegalAccessException {
    Set<String> out = new TreeSet<>();
    for (Field f : keyFields(keys)) {
      out.add((String) f.get(null));
    }
    return out;
  }

  private static Iterable<Field> keyFields(Class<?> keys) {
    List<Field> out = new ArrayList<>();
    for (Field f : keys.getDeclaredFields()) {
      if (f.getName().endsWith("_KEY") && Modifier.isStatic(f.getModifiers())
          && f.getType() == String.class) {
        f.setAccessible(true);
        out.add(f);
      }
    }
    return out;
  }

  /**
   * Fails with a list of every disagreement between the keys {@code classes} declare and the
   * defaults file {@code resource}: a key not described, described without a description or with
   * another default, and a property no class declares.
   */
  public static void assertInSync(String resource, Class<?>... classes) throws Exception {
    Map<String, Property> xml = defaults(resource);
    Set<String> declared = new TreeSet<>();
    StringBuilder problems = new StringBuilder();
    for (Class<?> keys : classes) {
      for (Field f : keyFields(keys)) {
        String key = (String) f.get(null);
        declared.add(key);
        Property p = xml.get(key);
        if (p == null) {
          problems.append("\n  ").append(key).append(" is not in ").append(resource);
          continue;
        }
        if (p.description.isEmpty()) {
          problems.append("\n  ").append(key).append(" has no description");
        }
        String expected = defaultOf(keys, f);
        if (!expected.equals(p.value)) {
          problems.append("\n  ").append(key).append(": ").append(resource).append(" says '")
              .append(p.value).append("', ").append(keys.getSimpleName()).append(" says '")
              .append(expected).append("'");
        }
      }
    }
    for (String key : xml.keySet()) {
      if (!declared.contains(key)) {
        problems.append("\n  ").append(key).append(" is described in ").append(resource)
            .append(" but declared by none of the classes (stale)");
      }
    }
    if (problems.length() > 0) {
      throw new AssertionError(resource + " disagrees with its keys classes:" + problems);
    }
  }

  private static String defaultOf(Class<?> keys, Field keyField) throws IllegalAccessException {
    String base = keyField.getName().substring(0, keyField.getName().length() - "_KEY".length());
    try {
      Field d = keys.getDeclaredField(base + "_DEFAULT");
      d.setAccessible(true);
      return String.valueOf(d.get(null));
    } catch (NoSuchFieldException none) {
      return "";
    }
  }
}
