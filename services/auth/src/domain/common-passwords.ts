/**
 * The most used passwords (6 characters or more, since shorter ones are
 * refused anyway), from the public breach lists' top entries plus the
 * Spanish-language favourites. Shipped with the code: checking a new
 * password never needs the network. Compared case-insensitively.
 */
const LIST = [
  '123456', 'password', '12345678', 'qwerty', '123456789', '111111', '1234567', 'dragon', '123123', 'baseball',
  'abc123', 'football', 'monkey', 'letmein', '696969', 'shadow', 'master', '666666', 'qwertyuiop', '123321',
  'mustang', '1234567890', 'michael', '654321', 'superman', '1qaz2wsx', '7777777', '121212', '000000', 'qazwsx',
  '123qwe', 'killer', 'trustno1', 'jordan', 'jennifer', 'zxcvbnm', 'asdfgh', 'hunter', 'buster', 'soccer', 'harley',
  'batman', 'andrew', 'tigger', 'sunshine', 'iloveyou', 'charlie', 'robert', 'thomas', 'hockey', 'ranger', 'daniel',
  'starwars', 'klaster', '112233', 'george', 'computer', 'michelle', 'jessica', 'pepper', 'zxcvbn', '555555',
  '11111111', '131313', 'freedom', '777777', 'maggie', '159753', 'aaaaaa', 'ginger', 'princess', 'joshua', 'cheese',
  'amanda', 'summer', 'ashley', 'nicole', 'chelsea', 'biteme', 'matthew', 'access', 'yankees', '987654321', 'dallas',
  'austin', 'thunder', 'taylor', 'matrix', 'minecraft', 'william', 'corvette', 'martin', 'heather', 'secret',
  'merlin', 'diamond', '1234qwer', 'gfhjkm', 'hammer', 'silver', '222222', '88888888', 'anthony', 'justin', 'bailey',
  'q1w2e3r4t5', 'patrick', 'internet', 'scooter', 'orange', 'golfer', 'cookie', 'richard', 'samantha', 'bigdog',
  'guitar', 'jackson', 'whatever', 'mickey', 'chicken', 'sparky', 'snoopy', 'maverick', 'phoenix', 'camaro',
  'peanut', 'morgan', 'welcome', 'falcon', 'cowboy', 'ferrari', 'samsung', 'andrea', 'smokey', 'steelers', 'joseph',
  'mercedes', 'dakota', 'arsenal', 'eagles', 'melissa', 'boomer', 'booboo', 'spider', 'nascar', 'monster', 'tigers',
  'yellow', 'xxxxxx', '123123123', 'gateway', 'marina', 'diablo', 'bulldog', 'qwer1234', 'compaq', 'purple',
  'hardcore', 'banana', 'junior', 'hannah', '123654', 'porsche', 'lakers', 'iceman', 'cowboys', '987654', 'london',
  'tennis', '999999', 'ncc1701', 'coffee', 'scooby', 'miller', 'boston', 'q1w2e3r4', 'fuckoff', 'brandon', 'yamaha',
  'chester', 'mother', 'forever', 'johnny', 'edward', '333333', 'oliver', 'redsox', 'player', 'nikita', 'knight',
  'fender', 'barney', 'midnight', 'please', 'brandy', 'chicago', 'badboy', 'slayer', 'rangers', 'charles', 'flower',
  'bigdaddy', 'rabbit', 'wizard', 'bigdick', 'jasper', 'rachel', 'steven', 'winner', 'adidas', 'victoria', 'natasha',
  '1q2w3e4r', 'jasmine', 'winter', 'prince', 'panties', 'marine', 'ghbdtn', 'fishing', 'cocacola', 'casper',
  '232323', 'raiders', '888888', 'marlboro', 'gandalf', 'asdfasdf', 'crystal', '87654321', '12344321', 'golden',
  '8675309', '123abc', '1q2w3e', '1qazxsw2', 'qwe123', 'password1', 'password123', 'passw0rd', 'p@ssw0rd',
  'admin123', 'administrator', 'changeme', 'default', 'letmein1', 'welcome1', 'abcdef', 'abcdefg', 'abcd1234',
  'aaaaaaa', 'asdf1234', 'zaq12wsx', 'qwerty123', 'qwerty1', '1qaz2wsx3edc', '123456a', 'a123456', '123456q',
  '147258369', '147258', '159357', '741852963', 'asdasd', 'asd123', 'azerty', '000000000', '0123456789',
  '1234512345', '5201314', '123654789', '11223344', 'ilovey0u', 'trustno0', 'superman1', 'princesa', 'contraseña',
  'contrasena', 'contraseña1', 'contrasena1', 'contraseña123', 'contrasena123', 'clave123', 'miclave', 'secreto',
  'teamo123', 'tequiero', 'tequieromucho', 'amor123', 'amorcito', 'mimamá', 'mimama',
  'mamita', 'papito', 'bebito', 'bebita', 'cariño', 'carino', 'corazon', 'corazón', 'mariposa', 'estrella',
  'chocolate', 'familia', 'dios123', 'jesus1', 'jesucristo', 'maria123', 'mariana', 'gatito', 'perrito', 'tesoro',
  'angelito', 'angelita', 'españa', 'espana', 'espana1', 'madrid', 'barcelona', 'realmadrid', 'barcelona1',
  'atletico', 'sevilla', 'valencia', 'mexico', 'mexico1', 'argentina', 'colombia', 'venezuela', 'peru123',
  'chile123', 'boca123', 'riverplate', 'futbol', 'futbol1', 'pelota', 'america', 'guadalupe', 'alejandro',
  'alejandra', 'fernando', 'fernanda', 'carolina', 'daniela', 'gabriela', 'valentina', 'sebastian', 'santiago',
  'antonio', 'francisco', 'javier', 'manuel', 'carlos123', 'miguel123', 'lucas123', 'sofia123', 'martina', 'hola123',
  'holahola', 'hola1234', 'qwerty12', 'asdfghjkl', 'zxcvbnm1', 'mi-asistente', 'miasistente', 'asistente',
  'asistente1', 'asistente123', 'empresa', 'empresa1', 'empresa123', 'negocio', 'negocio1', 'oficina', 'oficina1',
  'usuario', 'usuario1', 'usuario123',
];

export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(LIST);

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.normalize('NFKC').toLowerCase());
}
