// Rules help (issue 15): a page per game in the project's own words, drawn
// from docs/rules.md, with pictures of the cards by the screens' own SVG;
// the same page over the table (the "?" button); and the one-line hint at
// the table, what the seat may do now, said from the state's legal moves.
//
// The texts live here, not in i18n.js, so that the long prose does not
// crowd the interface's dictionary: TEXTS has one dictionary per language,
// with the same keys (a test checks it). A value is a string, or a list of
// paragraphs where an item starting "- " is a bullet; *words* are bold.
import { h, clear } from './dom.js';
import { t, getLang, plural } from './i18n.js';
import { faceSVG, backSVG } from './cards.js';
import { paperSVG, suitIcon } from './papayoo.js';
import { colourSVG, limitSVG, limitBackSVG } from './limits.js';
import { cardSVG } from './dacapo.js';
import { stylesheet } from './screen.js';
import { gameNames, gameInfo, gameName } from './registry.js';
import { tutorialLinks } from './tutorial.js'; // issue 26: a tutorial per game

const en = {
  // The help page's frame.
  'page.title': 'How to play {game}',
  'page.others': 'Other games:',
  'page.play': 'Start a table',
  'page.players': '{min} to {max} players',
  'page.unknown': 'There is no help for this game. Choose one:',

  // The hint line at the table.
  'hint.yours': 'Your turn: {what}.',
  'hint.wait': 'Waiting for {names}.',
  'hint.watch': 'You are watching: {names} to play.',
  'hint.over': 'The game is over.',
  'hint.refused': 'Not allowed: {why}',
  'hint.or': ' or ',
  'hint.and': ' and ',
  'cabo.hint.peek': 'Your turn: choose {n} of your cards to look at, then press Look.',
  'cabo.hint.draw': 'draw a card',
  'cabo.hint.take': 'take the discard (select your card first)',
  'cabo.hint.cabo': 'call Cabo',
  'cabo.hint.replace': 'keep the card in place of the card of yours you select (or of a set of equal cards)',
  'cabo.hint.discard': 'discard it',
  'cabo.hint.peek1': 'peek at one of your cards',
  'cabo.hint.spy': 'select another player’s card to spy on',
  'cabo.hint.swap': 'select one of your cards and another player’s to swap them blind',
  'papayoo.hint.pass': 'Your turn: choose {n} cards to pass to your left neighbour, {name}, then press Pass.',
  'papayoo.hint.lead': 'lead any card',
  'papayoo.hint.follow': 'play a card of the suit led',
  'papayoo.hint.any': 'you cannot follow, play any card',
  'limits.hint.hide.one': 'Your turn: hide a card face down (select it, then press Hide); it raises its colour’s limit by 1.',
  'limits.hint.hide.other': 'Your turn: hide {n} cards face down (select them, then press Hide); each raises its colour’s limit by 1.',
  'limits.hint.lead': 'start the pile with a card (tap a card, then the pile or Place)',
  'limits.hint.place': 'place a card (tap a card, then the pile)',
  'limits.hint.exchange': 'exchange 4 cards of a colour',
  'limits.hint.accuse': 'tap a player to accuse them',
  'limits.hint.pass': 'pass',
  'dacapo.hint.build': 'build on a centre pile (tap a glowing card, yours or an opponent’s, then a building pile)',
  'dacapo.hint.helper': 'put a hand card on a helper pile to end your turn (tap it, then the helper pile)',
  'dacapo.hint.end': 'end your turn (with nothing in hand or to draw, building is optional: an opponent’s card may uncover yours)',
  'dacapo.hint.pass': 'pass',

  // Cabo.
  'cabo.lead': 'A memory game for 2 to 5 players. Your cards lie face down in front of you and you only ever glimpse them: end each round with the lowest total.',
  'cabo.goal.h': 'Goal',
  'cabo.goal': ['Score as few points as possible. Points add up from round to round; when someone goes over 100, the game ends and the lowest score wins.'],
  'cabo.cards.h': 'The cards',
  'cabo.cards': ['52 cards worth 0 to 13: two 0s, two 13s and four of every value in between. Low cards are good, high ones cost you, and the 7s to 12s have powers.'],
  'cabo.pic.low': 'Good to keep',
  'cabo.pic.high': 'Better gone',
  'cabo.setup.h': 'Getting ready',
  'cabo.setup': ['Everyone gets 4 cards face down in a row. The rest is the draw pile; its top card is turned up to start the discard pile.',
    'Before the first turn, every player secretly looks at 2 of their own cards. Remember them: nobody will show them to you again.'],
  'cabo.pic.row': 'Your row: four cards nobody sees',
  'cabo.turn.h': 'Your turn',
  'cabo.turn': ['Do one of three things:',
    '- *Draw* the top card of the draw pile and look at it. Keep it in place of one of your cards (the old one goes face up on the discard), throw it away, or throw it away to use its power.',
    '- *Take the discard*: put the top card of the discard pile in place of one of your cards. Taken this way, a card is worth its points, never its power.',
    '- *Call Cabo* at the start of your turn if you think your total is the lowest. You take no card; every other player has one last turn, then the round ends.'],
  'cabo.powers.h': 'The powers',
  'cabo.powers': ['A 7 to 12 that you have just drawn may be discarded for its power:'],
  'cabo.pic.peek': '7 and 8, Peek: look at one of your own cards',
  'cabo.pic.spy': '9 and 10, Spy: look at one card of another player',
  'cabo.pic.swap': '11 and 12, Swap: exchange one of your cards with another player’s, blind',
  'cabo.sets.h': 'Sets',
  'cabo.sets': ['Sure that two, three or four of your cards have the same value? Replace them all at once with one card and you are rid of several cards in one turn.',
    'If they do not match, they are shown to everyone, stay where they were, and your new card goes on the discard.'],
  'cabo.end.h': 'End of a round and scores',
  'cabo.end': ['All cards are turned up. The lowest total scores 0; everyone else scores their total.',
    '- A caller who is not the lowest adds a 5-point penalty. A caller tied for the lowest wins alone.',
    '- *Kamikaze*: exactly two 12s and two 13s win the round: you score 0, everyone else 50.',
    '- Landing on exactly 100 points brings you back down to 50.'],
  'cabo.pic.kamikaze': 'Kamikaze: 50 points for each of the others',
  'cabo.tips.h': 'Tips',
  'cabo.tips': ['- The table shows a card you look at for four seconds only: memory is part of the game.',
    '- Follow the swaps: a card of yours may have changed hands without anyone seeing it.',
    '- Call Cabo early when your total is low: the others have only one turn to catch up.'],

  // Papayoo.
  'papayoo.lead': 'A trick game for 3 to 8 players where every point is bad news: take as few as you can.',
  'papayoo.goal.h': 'Goal',
  'papayoo.goal': ['Have the lowest total at the end of the game. Points come from the cards in the tricks you take.'],
  'papayoo.cards.h': 'The cards',
  'papayoo.cards': ['Four ordinary suits, spades, hearts, diamonds and clubs, numbered 1 to 10, and a fifth suit, the *Payoo*, numbered 1 to 20.',
    'Each Payoo card scores its number. The ordinary cards score nothing, except one: the Papayoo.'],
  'papayoo.pic.suits': 'The four suits: no points',
  'papayoo.pic.payoo': 'Payoo cards: their number in points',
  'papayoo.setup.h': 'The deal and the pass',
  'papayoo.setup': ['All the cards are dealt (with 7 or 8 players the four 1s are set aside first).',
    'Then everyone chooses cards to pass face down to their left neighbour: 5 with 3 or 4 players, 4 with 5, 3 with 6 to 8. Everyone chooses at the same time, and you see what you receive once your own pass is in.'],
  'papayoo.die.h': 'The Papayoo',
  'papayoo.die': ['After the pass a die names a suit: the 7 of that suit is the *Papayoo* for this round, worth 40 points. The suit changes every round, so mind your 7s when you pass.'],
  'papayoo.pic.die': 'The die’s suits',
  'papayoo.pic.papayoo': 'The die said diamonds: the 7♦ is worth 40',
  'papayoo.tricks.h': 'The tricks',
  'papayoo.tricks': ['The dealer leads the first trick; then each player plays one card, clockwise.',
    '- Follow the suit led if you can (the Payoo is a suit like the others). You need not play higher.',
    '- If you cannot follow, play any card: the moment to get rid of a Payoo or the Papayoo.',
    '- The highest card of the suit led takes the trick, and its taker leads the next one.'],
  'papayoo.end.h': 'Scores and the end',
  'papayoo.end': ['Each round gives out 250 points in all: 210 in Payoo cards and 40 for the Papayoo. Totals add up over the rounds (as many rounds as players unless the table chose otherwise); the lowest total wins.'],
  'papayoo.tips.h': 'Tips',
  'papayoo.tips': ['- Pass your high Payoos and a high card in a short suit.',
    '- A suit you run out of early lets you unload points on other people’s tricks.',
    '- A card of another suit never takes a trick, however high: only the suit led counts.'],

  // Limits.
  'limits.lead': 'A bluffing game for 2 to 6 players: everyone plays colours onto one pile, which must not hold too many of any colour. How many is too many? Nobody knows for sure.',
  'limits.goal.h': 'Goal',
  'limits.goal': ['Score the most: you gain points by accusing rightly, or by being accused wrongly, and lose 2 for each limit card you take.'],
  'limits.cards.h': 'The cards',
  'limits.cards': ['60 colour cards, 12 in each of five colours: red, blue, purple, yellow and green, each with its own shape.',
    'A *limit card* says, for each colour, how many cards of it the pile may hold (X: no limit). Its back counts −2 for the player who takes it.'],
  'limits.pic.colours': 'The five colours',
  'limits.pic.limit': 'A limit card, and its back',
  'limits.setup.h': 'A round',
  'limits.setup': ['Each player holds 5 cards (6 with 2 players). A new limit card is turned up.',
    'Everyone *hides* 1 card face down in front of them (2 cards with 2 players). A hidden card raises the limit of its colour by 1, and only its owner knows which colour it is.',
    'The leader starts the pile with one card from their hand; then play goes clockwise.'],
  'limits.turn.h': 'Your turn',
  'limits.turn': ['Do one of three things:',
    '- *Place* a card face up on the pile, then draw one. Only the top card can be seen: remember what went in.',
    '- *Exchange*: with 4 cards of one colour in hand, show them, gain 1 point, draw 4, then put 2 of the 4 on the pile and 2 on top of the draw pile.',
    '- *Accuse* a player who has placed a card this round: the colour of their last card is suspect.'],
  'limits.accuse.h': 'An accusation',
  'limits.accuse': ['All hidden cards are revealed. The true limit of the suspect colour is the number on the limit card plus the hidden cards of that colour.',
    'Count that colour in the pile, from the bottom up to the suspect’s last card. Over the limit: the suspect takes the limit card and the accuser gains 1 point. Within it: the accuser takes the limit card and the suspect gains 1 point.',
    'Everyone takes back their hidden cards and refills their hand; whoever took the limit card leads the next round.'],
  'limits.end.h': 'The end',
  'limits.end': ['The game ends when the last limit card is taken. Your score is your points minus 2 for each limit card you took; the highest wins.'],
  'limits.tips.h': 'Tips',
  'limits.tips': ['- Your hidden card is your secret: a colour that looks full may have room only you know about.',
    '- Playing a colour makes you the suspect for it: sometimes a safe colour is the better move.',
    '- Accuse when the count looks over the limit and your own hidden card does not save the suspect.'],

  // Da Capo!
  'dacapo.lead': 'A race for 2 to 6 players: be the first to empty your personal pile by building runs from 1 to 10 in the centre.',
  'dacapo.goal.h': 'Goal',
  'dacapo.goal': ['Play the last card of your personal pile before anyone else.'],
  'dacapo.cards.h': 'The cards',
  'dacapo.cards': ['165 cards: fifteen of each number from 1 to 10, and 15 *Jokers*. A Joker takes whatever value the pile needs.'],
  'dacapo.pic.numbers': 'A run from 1 to 10',
  'dacapo.pic.joker': 'The Joker: any number',
  'dacapo.setup.h': 'Getting ready',
  'dacapo.setup': ['Each player gets a personal pile of 20 cards face down, its top card turned up, and 4 cards in hand. The rest is the draw pile.'],
  'dacapo.turn.h': 'Your turn',
  'dacapo.turn': ['- Refill your hand to 4 cards.',
    '- *Build* as much as you like on the centre piles. A pile starts with a 1 (or a Joker) and goes up by exactly one; at 10 it is set aside. At most 3 piles at a time.',
    '- Your cards may come from your hand, the top of your personal pile, the tops of your helper piles, and even the top of an opponent’s personal pile.',
    '- End your turn by putting one card from your hand on one of your helper piles (up to 3 piles, any card on any pile).',
    'If your hand empties while you build, draw 4 more at once and go on.'],
  'dacapo.end.h': 'The end',
  'dacapo.end': ['Whoever plays the last card of their personal pile wins. In a match, the winner scores a point for each card left in the others’ personal piles, and games go on until someone reaches the target.'],
  'dacapo.tips.h': 'Tips',
  'dacapo.tips': ['- Your personal pile comes first: each card from it brings you closer to winning.',
    '- Taking an opponent’s top card slows them down and may uncover a build for you.',
    '- Sort your helper piles so that their tops are useful next turn, and keep Jokers to reach your pile’s top card.'],
};

const fr = {
  'page.title': 'Comment jouer à {game}',
  'page.others': 'Les autres jeux :',
  'page.play': 'Lancer une table',
  'page.players': '{min} à {max} joueurs',
  'page.unknown': 'Pas d’aide pour ce jeu. Choisissez-en un :',

  'hint.yours': 'À vous : {what}.',
  'hint.wait': 'On attend {names}.',
  'hint.watch': 'Vous regardez : à {names} de jouer.',
  'hint.over': 'La partie est finie.',
  'hint.refused': 'Impossible : {why}',
  'hint.or': ' ou ',
  'hint.and': ' et ',
  'cabo.hint.peek': 'À vous : choisissez {n} de vos cartes à regarder, puis « Regarder ».',
  'cabo.hint.draw': 'piochez une carte',
  'cabo.hint.take': 'prenez la défausse (choisissez d’abord votre carte)',
  'cabo.hint.cabo': 'annoncez Cabo',
  'cabo.hint.replace': 'gardez la carte à la place de celle des vôtres que vous choisissez (ou d’une série de cartes égales)',
  'cabo.hint.discard': 'défaussez-la',
  'cabo.hint.peek1': 'regardez une de vos cartes',
  'cabo.hint.spy': 'choisissez une carte d’un autre joueur pour l’espionner',
  'cabo.hint.swap': 'choisissez une de vos cartes et une d’un autre joueur pour les échanger à l’aveugle',
  'papayoo.hint.pass': 'À vous : choisissez {n} cartes à passer à votre voisin de gauche, {name}, puis « Passer ».',
  'papayoo.hint.lead': 'entamez avec la carte de votre choix',
  'papayoo.hint.follow': 'jouez une carte de la couleur demandée',
  'papayoo.hint.any': 'vous ne pouvez pas fournir, jouez n’importe quelle carte',
  'limits.hint.hide.one': 'À vous : cachez une carte face cachée (choisissez-la, puis Cacher) ; elle relève de 1 la limite de sa couleur.',
  'limits.hint.hide.other': 'À vous : cachez {n} cartes face cachée (choisissez-les, puis Cacher) ; chacune relève de 1 la limite de sa couleur.',
  'limits.hint.lead': 'commencez la pile avec une carte (touchez une carte, puis la pile ou Poser)',
  'limits.hint.place': 'posez une carte (touchez une carte, puis la pile)',
  'limits.hint.exchange': 'échangez 4 cartes d’une couleur',
  'limits.hint.accuse': 'touchez un joueur pour l’accuser',
  'limits.hint.pass': 'passez',
  'dacapo.hint.build': 'construisez sur une pile du centre (touchez une carte en surbrillance, à vous ou à un adversaire, puis une pile de construction)',
  'dacapo.hint.helper': 'posez une carte de votre main sur une pile d’aide pour finir votre tour (touchez-la, puis la pile d’aide)',
  'dacapo.hint.end': 'finissez votre tour (sans carte en main ni à piocher, construire est facultatif : la carte d’un adversaire peut découvrir la vôtre)',
  'dacapo.hint.pass': 'passez',

  'cabo.lead': 'Un jeu de mémoire pour 2 à 5 joueurs. Vos cartes sont posées face cachée devant vous et vous ne faites que les entrevoir : finissez chaque manche avec le plus petit total.',
  'cabo.goal.h': 'But du jeu',
  'cabo.goal': ['Marquer le moins de points possible. Les points s’additionnent de manche en manche ; quand un joueur dépasse 100, la partie s’arrête et le plus petit score gagne.'],
  'cabo.cards.h': 'Les cartes',
  'cabo.cards': ['52 cartes de 0 à 13 : deux 0, deux 13 et quatre de chaque valeur entre les deux. Les petites cartes sont bonnes, les grosses coûtent cher, et les 7 à 12 ont des pouvoirs.'],
  'cabo.pic.low': 'À garder',
  'cabo.pic.high': 'À chasser',
  'cabo.setup.h': 'Mise en place',
  'cabo.setup': ['Chacun reçoit 4 cartes face cachée, en ligne. Le reste forme la pioche ; sa première carte est retournée pour commencer la défausse.',
    'Avant le premier tour, chaque joueur regarde en secret 2 de ses cartes. Retenez-les : personne ne vous les remontrera.'],
  'cabo.pic.row': 'Votre ligne : quatre cartes que personne ne voit',
  'cabo.turn.h': 'Votre tour',
  'cabo.turn': ['Faites une de ces trois choses :',
    '- *Piocher* la carte du dessus de la pioche et la regarder. La garder à la place d’une de vos cartes (l’ancienne va face visible sur la défausse), la jeter, ou la jeter pour utiliser son pouvoir.',
    '- *Prendre la défausse* : mettre la carte du dessus de la défausse à la place d’une de vos cartes. Prise ainsi, une carte vaut ses points, jamais son pouvoir.',
    '- *Annoncer Cabo* au début de votre tour si vous pensez avoir le plus petit total. Vous ne prenez pas de carte ; chacun des autres joue un dernier tour, puis la manche s’arrête.'],
  'cabo.powers.h': 'Les pouvoirs',
  'cabo.powers': ['Un 7 à 12 que vous venez de piocher peut être défaussé pour son pouvoir :'],
  'cabo.pic.peek': '7 et 8, Coup d’œil : regardez une de vos cartes',
  'cabo.pic.spy': '9 et 10, Espion : regardez une carte d’un autre joueur',
  'cabo.pic.swap': '11 et 12, Échange : échangez une de vos cartes avec celle d’un autre joueur, sans les regarder',
  'cabo.sets.h': 'Les séries',
  'cabo.sets': ['Sûr que deux, trois ou quatre de vos cartes ont la même valeur ? Remplacez-les toutes d’un coup par une seule carte : vous voilà débarrassé de plusieurs cartes en un tour.',
    'Si elles ne sont pas pareilles, elles sont montrées à tous, restent à leur place, et votre nouvelle carte part à la défausse.'],
  'cabo.end.h': 'Fin de manche et score',
  'cabo.end': ['Toutes les cartes sont retournées. Le plus petit total marque 0 ; chacun des autres marque son total.',
    '- Celui qui a annoncé Cabo sans avoir le plus petit total prend 5 points de pénalité. À égalité pour le plus petit, il gagne seul.',
    '- *Kamikaze* : exactement deux 12 et deux 13 gagnent la manche : vous marquez 0, tous les autres 50.',
    '- Tomber pile sur 100 points vous ramène à 50.'],
  'cabo.pic.kamikaze': 'Kamikaze : 50 points pour chacun des autres',
  'cabo.tips.h': 'Conseils',
  'cabo.tips': ['- La table ne montre une carte regardée que quatre secondes : la mémoire fait partie du jeu.',
    '- Suivez les échanges : une de vos cartes a pu changer de main sans que personne ne la voie.',
    '- Annoncez Cabo tôt quand votre total est bas : les autres n’ont qu’un tour pour rattraper.'],

  'papayoo.lead': 'Un jeu de plis pour 3 à 8 joueurs où chaque point est une mauvaise nouvelle : prenez-en le moins possible.',
  'papayoo.goal.h': 'But du jeu',
  'papayoo.goal': ['Avoir le plus petit total à la fin de la partie. Les points viennent des cartes des plis que vous ramassez.'],
  'papayoo.cards.h': 'Les cartes',
  'papayoo.cards': ['Quatre couleurs ordinaires, pique, cœur, carreau et trèfle, numérotées de 1 à 10, et une cinquième couleur, le *Payoo*, numérotée de 1 à 20.',
    'Chaque carte Payoo vaut son numéro en points. Les cartes ordinaires ne valent rien, sauf une : le Papayoo.'],
  'papayoo.pic.suits': 'Les quatre couleurs : aucun point',
  'papayoo.pic.payoo': 'Les Payoo : leur numéro en points',
  'papayoo.setup.h': 'La donne et le passage',
  'papayoo.setup': ['Toutes les cartes sont distribuées (à 7 ou 8 joueurs, on retire d’abord les quatre 1).',
    'Puis chacun choisit des cartes à passer face cachée à son voisin de gauche : 5 à 3 ou 4 joueurs, 4 à 5, 3 de 6 à 8. Tout le monde choisit en même temps, et vous voyez ce que vous recevez une fois votre propre passage fait.'],
  'papayoo.die.h': 'Le Papayoo',
  'papayoo.die': ['Après le passage, un dé désigne une couleur : le 7 de cette couleur est le *Papayoo* de la manche, il vaut 40 points. La couleur change à chaque manche : méfiez-vous de vos 7 au moment de passer.'],
  'papayoo.pic.die': 'Les couleurs du dé',
  'papayoo.pic.papayoo': 'Le dé a dit carreau : le 7♦ vaut 40',
  'papayoo.tricks.h': 'Les plis',
  'papayoo.tricks': ['Le donneur entame le premier pli ; puis chacun joue une carte, dans le sens des aiguilles d’une montre.',
    '- Fournissez la couleur demandée si vous le pouvez (le Payoo est une couleur comme les autres). Inutile de monter.',
    '- Si vous ne pouvez pas fournir, jouez n’importe quelle carte : le moment de vous défaire d’un Payoo ou du Papayoo.',
    '- La plus forte carte de la couleur demandée remporte le pli, et celui qui le ramasse entame le suivant.'],
  'papayoo.end.h': 'Score et fin',
  'papayoo.end': ['Chaque manche distribue 250 points en tout : 210 en cartes Payoo et 40 pour le Papayoo. Les totaux s’additionnent au fil des manches (autant de manches que de joueurs, sauf choix contraire de la table) ; le plus petit total gagne.'],
  'papayoo.tips.h': 'Conseils',
  'papayoo.tips': ['- Passez vos gros Payoo et une forte carte d’une couleur courte.',
    '- Une couleur vite épuisée vous permet de vous défausser de points sur les plis des autres.',
    '- Une carte d’une autre couleur ne remporte jamais le pli, si forte soit-elle : seule compte la couleur demandée.'],

  'limits.lead': 'Un jeu de bluff pour 2 à 6 joueurs : chacun pose des couleurs sur une pile commune, qui ne doit pas contenir trop de cartes d’une même couleur. Combien, c’est trop ? Personne ne le sait vraiment.',
  'limits.goal.h': 'But du jeu',
  'limits.goal': ['Marquer le plus de points : on en gagne en accusant à raison, ou en étant accusé à tort, et on perd 2 points par carte limite ramassée.'],
  'limits.cards.h': 'Les cartes',
  'limits.cards': ['60 cartes couleur, 12 de chacune des cinq couleurs : rouge, bleu, violet, jaune et vert, chacune avec sa forme.',
    'Une *carte limite* indique pour chaque couleur combien de cartes la pile peut en contenir (X : pas de limite). Son dos compte −2 pour qui la ramasse.'],
  'limits.pic.colours': 'Les cinq couleurs',
  'limits.pic.limit': 'Une carte limite, et son dos',
  'limits.setup.h': 'Une manche',
  'limits.setup': ['Chacun a 5 cartes en main (6 à deux joueurs). Une nouvelle carte limite est retournée.',
    'Chacun *cache* 1 carte face cachée devant lui (2 cartes à deux joueurs). Une carte cachée relève de 1 la limite de sa couleur, et seul son propriétaire sait laquelle.',
    'Le meneur commence la pile avec une carte de sa main ; on joue ensuite dans le sens des aiguilles d’une montre.'],
  'limits.turn.h': 'Votre tour',
  'limits.turn': ['Faites une de ces trois choses :',
    '- *Poser* une carte face visible sur la pile, puis en piocher une. Seule la carte du dessus se voit : retenez ce qui est passé.',
    '- *Échanger* : avec 4 cartes d’une couleur en main, montrez-les, gagnez 1 point, piochez 4 cartes, puis posez 2 des 4 sur la pile et 2 sur la pioche.',
    '- *Accuser* un joueur qui a posé une carte dans la manche : la couleur de sa dernière carte est suspecte.'],
  'limits.accuse.h': 'Une accusation',
  'limits.accuse': ['Toutes les cartes cachées sont révélées. La vraie limite de la couleur suspecte est le nombre de la carte limite plus les cartes cachées de cette couleur.',
    'On compte cette couleur dans la pile, du bas jusqu’à la dernière carte du suspect. Au-delà de la limite : le suspect ramasse la carte limite et l’accusateur gagne 1 point. Dans la limite : l’accusateur ramasse la carte limite et le suspect gagne 1 point.',
    'Chacun reprend ses cartes cachées et complète sa main ; celui qui a ramassé la carte limite mène la manche suivante.'],
  'limits.end.h': 'La fin',
  'limits.end': ['La partie s’arrête quand la dernière carte limite est ramassée. Votre score : vos points moins 2 par carte limite ramassée ; le plus haut gagne.'],
  'limits.tips.h': 'Conseils',
  'limits.tips': ['- Votre carte cachée est votre secret : une couleur qui semble pleine a peut-être de la place que vous seul connaissez.',
    '- Jouer une couleur fait de vous le suspect pour elle : une couleur sûre est parfois le meilleur coup.',
    '- Accusez quand le compte semble dépasser la limite et que votre propre carte cachée ne sauve pas le suspect.'],

  'dacapo.lead': 'Une course pour 2 à 6 joueurs : soyez le premier à vider votre pile personnelle en montant des suites de 1 à 10 au centre.',
  'dacapo.goal.h': 'But du jeu',
  'dacapo.goal': ['Jouer la dernière carte de votre pile personnelle avant tout le monde.'],
  'dacapo.cards.h': 'Les cartes',
  'dacapo.cards': ['165 cartes : quinze de chaque nombre de 1 à 10, et 15 *Jokers*. Un Joker prend la valeur dont la pile a besoin.'],
  'dacapo.pic.numbers': 'Une suite de 1 à 10',
  'dacapo.pic.joker': 'Le Joker : n’importe quel nombre',
  'dacapo.setup.h': 'Mise en place',
  'dacapo.setup': ['Chacun reçoit une pile personnelle de 20 cartes face cachée, la première retournée, et 4 cartes en main. Le reste forme la pioche.'],
  'dacapo.turn.h': 'Votre tour',
  'dacapo.turn': ['- Complétez votre main à 4 cartes.',
    '- *Construisez* autant que vous voulez sur les piles du centre. Une pile commence par un 1 (ou un Joker) et monte d’exactement un ; à 10, elle est mise de côté. 3 piles au plus à la fois.',
    '- Vos cartes peuvent venir de votre main, du dessus de votre pile personnelle, du dessus de vos piles d’aide, et même du dessus de la pile personnelle d’un adversaire.',
    '- Finissez votre tour en posant une carte de votre main sur une de vos piles d’aide (3 piles au plus, n’importe quelle carte sur n’importe quelle pile).',
    'Si votre main se vide pendant que vous construisez, piochez aussitôt 4 cartes et continuez.'],
  'dacapo.end.h': 'La fin',
  'dacapo.end': ['Celui qui joue la dernière carte de sa pile personnelle gagne. En match, le gagnant marque un point par carte restant dans les piles personnelles des autres, et les parties s’enchaînent jusqu’à ce que quelqu’un atteigne l’objectif.'],
  'dacapo.tips.h': 'Conseils',
  'dacapo.tips': ['- Votre pile personnelle d’abord : chaque carte qui en sort vous rapproche de la victoire.',
    '- Prendre la carte du dessus d’un adversaire le ralentit et peut vous ouvrir une construction.',
    '- Rangez vos piles d’aide pour que leurs dessus servent au tour suivant, et gardez les Jokers pour rejoindre le dessus de votre pile.'],
};

// TEXTS is exported for the test that both languages have the same keys.
export const TEXTS = { en, fr };

// ht looks a help text up in the page's language (English if missing) and
// fills {name} placeholders, as i18n.js's t does.
export function ht(key, params = {}) {
  const v = TEXTS[getLang()]?.[key] ?? en[key] ?? key;
  const fill = s => s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
  return Array.isArray(v) ? v.map(fill) : fill(v);
}

// ------------------------------------------------------------ pictures

// A picture is a row of cards with a caption; svgs are the cards' drawings;
// big draws them larger, for a card with small print (a limit card).
const pic = (caption, svgs, big = false) => ({ caption, svgs, big });

// The sections of each game's page, in order: a section's text is
// `${game}.${id}` (its heading `${game}.${id}.h`), then its pictures. A
// function, so that the cards' labels are drawn in the current language.
const pages = () => ({
  cabo: [
    ['goal'],
    ['cards', pic('cabo.pic.low', [0, 1, 2].map(faceSVG)), pic('cabo.pic.high', [13, 13].map(faceSVG))],
    ['setup', pic('cabo.pic.row', [0, 1, 2, 3].map(() => backSVG()))],
    ['turn'],
    ['powers', pic('cabo.pic.peek', [7, 8].map(faceSVG)), pic('cabo.pic.spy', [9, 10].map(faceSVG)), pic('cabo.pic.swap', [11, 12].map(faceSVG))],
    ['sets'],
    ['end', pic('cabo.pic.kamikaze', [12, 12, 13, 13].map(faceSVG))],
    ['tips'],
  ],
  papayoo: [
    ['goal'],
    ['cards', pic('papayoo.pic.suits', ['S10', 'H10', 'D10', 'C10'].map(c => paperSVG(c))),
      pic('papayoo.pic.payoo', ['P1', 'P9', 'P20'].map(c => paperSVG(c)))],
    ['setup'],
    ['die', pic('papayoo.pic.die', ['S', 'H', 'D', 'C'].map(s => suitIcon(s, 'svgcard hsuit'))), pic('papayoo.pic.papayoo', [paperSVG('D7', 'D7')])],
    ['tricks'],
    ['end'],
    ['tips'],
  ],
  limits: [
    ['goal'],
    ['cards', pic('limits.pic.colours', ['red', 'blue', 'purple', 'yellow', 'green'].map(colourSVG)),
      pic('limits.pic.limit', [limitSVG([null, 4, 2, 1, 0], 1), limitBackSVG()], true)],
    ['setup'],
    ['turn'],
    ['accuse'],
    ['end'],
    ['tips'],
  ],
  dacapo: [
    ['goal'],
    ['cards', pic('dacapo.pic.numbers', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(cardSVG)), pic('dacapo.pic.joker', [cardSVG('J')])],
    ['setup'],
    ['turn'],
    ['end'],
    ['tips'],
  ],
});

// rich turns a text's *bold* spans into elements.
function rich(s) {
  return s.split(/\*([^*]+)\*/).map((part, i) => (i % 2 ? h('strong', part) : part));
}

// body lays out a list of paragraphs, consecutive "- " items as one list.
function body(items) {
  const out = [];
  let ul = null;
  for (const s of [].concat(items)) {
    if (s.startsWith('- ')) {
      if (!ul) out.push(ul = h('ul'));
      ul.append(h('li', rich(s.slice(2))));
    } else {
      ul = null;
      out.push(h('p', rich(s)));
    }
  }
  return out;
}

// figure is a picture: a caption as wide as a few cards, a long row of
// cards ('wide') on a line of its own.
function figure(p) {
  return h('figure.hfig' + (p.svgs.length > 4 ? '.wide' : ''), h('div.hcards', p.svgs.map(svg => h('span.hcard' + (p.big ? '.big' : ''), { html: svg }))), h('figcaption', ht(p.caption)));
}

// helpArticle is a game's help: the lead, then its sections. headingId
// names the title, for a dialog's aria-labelledby.
export function helpArticle(game, headingId = 'help-title') {
  stylesheet('help.css');
  const { min, max } = gameInfo(game);
  return h('article.help', { dataset: { game } },
    h('h1', { id: headingId }, ht('page.title', { game: gameName(game) })),
    h('p.hplayers', ht('page.players', { min, max })),
    h('p.hlead', ht(game + '.lead')),
    pages()[game].map(([id, ...pics]) => h('section.hsec', { dataset: { section: id } },
      h('h2', ht(`${game}.${id}.h`)), body(ht(`${game}.${id}`)), pics.length ? h('div.hfigs', pics.map(figure)) : null)));
}

// helpPage fills main with the help page of game (the route /help/{game}):
// the other games' pages are a link away, and the home page to play.
export function helpPage(main, game) {
  stylesheet('help.css');
  clear(main);
  const nav = h('nav.hnav', h('span', ht('page.others')), ' ',
    gameNames().filter(g => g !== game).map(g => h('a', { href: '/help/' + g, 'data-help': g }, gameName(g))));
  if (!pages()[game] || !gameInfo(game).name) {
    main.append(h('section.card-panel.helppage', h('p', ht('page.unknown')), nav));
    return;
  }
  main.append(h('section.card-panel.helppage', { id: 'helppage' }, helpArticle(game),
    h('p.hplay', h('a.button.primary', { href: '/', 'data-action': 'play' }, ht('page.play')), ' ', tutorialLinks(game)), nav));
}

// ------------------------------------------------------------ overlay

let open = null; // {game, el, back}: the help shown over the table

// openHelp shows game's help over the page without leaving it (the table
// goes on underneath); Escape, the close button or a click outside closes
// it, and the focus goes back to where it was.
export function openHelp(game) {
  closeHelp();
  const back = document.activeElement;
  const close = h('button.primary.hclose', { type: 'button', 'data-action': 'close-help', onclick: closeHelp }, t('help.close'));
  const el = h('div.helpbox', {
    id: 'help', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'help-title',
    onclick: e => { if (e.target === e.currentTarget) closeHelp(); },
  }, h('div.card-panel', close, helpArticle(game)));
  document.body.append(el);
  document.addEventListener('keydown', onKey);
  open = { game, el, back };
  close.focus();
}

export function closeHelp() {
  if (!open) return;
  const { el, back } = open;
  open = null;
  el.remove();
  document.removeEventListener('keydown', onKey);
  back?.focus?.();
}

// refreshHelp redraws an open help in the language just chosen.
export function refreshHelp() {
  if (open) openHelp(open.game);
}

function onKey(e) {
  if (e.key === 'Escape') { e.preventDefault(); closeHelp(); }
}

// helpButton is the header's "?" at a table: it opens game's help there.
export function helpButton(game) {
  stylesheet('help.css');
  return h('button.helpbtn', {
    type: 'button', id: 'helpbtn', 'data-action': 'help', title: t('help.open'), 'aria-label': t('help.open'),
    onclick: () => openHelp(game),
  }, '?');
}

// ------------------------------------------------------------ the hint line

// words joins choices as a sentence does: "a, b or c".
function words(list, last = 'hint.or') {
  if (list.length < 2) return list.join('');
  return list.slice(0, -1).join(', ') + ht(last) + list[list.length - 1];
}

const types = st => new Set((st.legal || []).map(m => m.type));

// One function per game: what seat may do now in state st, or null when
// the seat has nothing to do (the line then says whom the table waits for).
export const HINTS = {
  cabo(st, seat) {
    const v = st.view, T = types(st);
    if (v.phase === 'peek') return ht('cabo.hint.peek', { n: v.options?.initial_peek ?? 2 });
    const say = [['draw', 'cabo.hint.draw'], ['take_discard', 'cabo.hint.take'], ['cabo', 'cabo.hint.cabo'],
      ['replace', 'cabo.hint.replace'], ['discard', 'cabo.hint.discard'], ['peek', 'cabo.hint.peek1'],
      ['spy', 'cabo.hint.spy'], ['swap', 'cabo.hint.swap']];
    return yours(say.filter(([k]) => T.has(k)).map(([, w]) => ht(w)));
  },
  papayoo(st, seat, name) {
    const v = st.view;
    if (v.phase === 'pass') return ht('papayoo.hint.pass', { n: v.pass_size - (v.my_pass?.length || 0), name: name((seat + 1) % v.players) });
    if (!v.led) return yours([ht('papayoo.hint.lead')]);
    const cards = (st.legal || []).filter(m => m.type === 'play').map(m => m.card);
    return yours([ht(cards.length && cards.every(c => c[0] === v.led) ? 'papayoo.hint.follow' : 'papayoo.hint.any')]);
  },
  limits(st, seat) {
    const v = st.view, T = types(st);
    if (v.phase === 'hide') { const n = v.players === 2 ? 2 : 1; return ht('limits.hint.hide.' + (plural(n) === 'one' ? 'one' : 'other'), { n }); }
    if (!v.led && T.has('place')) return yours([ht('limits.hint.lead')]);
    return yours(['place', 'exchange', 'accuse', 'pass'].filter(k => T.has(k)).map(k => ht('limits.hint.' + k)));
  },
  dacapo(st, seat) {
    const T = types(st);
    return yours(['build', 'helper', 'end', 'pass'].filter(k => T.has(k)).map(k => ht('dacapo.hint.' + k)));
  },
};

const yours = what => (what.length ? ht('hint.yours', { what: words(what) }) : null);

// hintText is the table's hint line for seat: a refusal's reason when the
// last move was refused, else what the seat may do, else whom the table
// waits for. name names a seat as the page does.
export function hintText(game, st, seat, name, refused) {
  if (refused) return ht('hint.refused', { why: refused });
  if (st.status === 'over' || st.view?.phase === 'over') return ht('hint.over');
  const mine = seat >= 0 && st.to_move.includes(seat);
  const what = mine && HINTS[game] ? HINTS[game](st, seat, name) : null;
  if (what) return what;
  const others = st.to_move.filter(s => s !== seat).map(name);
  if (!others.length) return '';
  return ht(seat >= 0 ? 'hint.wait' : 'hint.watch', { names: words(others, 'hint.and') });
}

// hintLine is the element app.js puts at the top of the table.
export function hintLine(game, st, seat, name, refused) {
  stylesheet('help.css');
  const text = hintText(game, st, seat, name, refused);
  const mine = seat >= 0 && st.to_move.includes(seat) && st.status !== 'over';
  return h('p.hintline' + (refused ? '.refused' : mine ? '.mine' : ''), { id: 'hint', role: 'status', 'aria-live': 'polite' }, text);
}
