import Foundation
import Strata
import StrataSQLite
import StrataSync
import StrataTestSupport
import StrataXML
import Testing

/// Ordered to-many relationships under sync: each member's position is a register of its
/// own, so a move made on one replica and a move or insertion made on another while apart
/// both hold, the same on every replica, whichever side of the pair says which objects are
/// members.
@Suite struct OrderedRelationshipTests {
    let replica = ReplicaID.random()
    let other = ReplicaID.random()
    let playlist = GlobalID.random()
    let songs = (0..<5).map { _ in GlobalID.random() }

    private func stamp(_ milliseconds: Int64, _ replica: ReplicaID? = nil) -> SyncTimestamp {
        SyncTimestamp(milliseconds: milliseconds, counter: 0, replica: replica ?? self.replica)
    }

    private func shown(_ order: [GlobalID]) -> ResolvedObject {
        ResolvedObject(entity: "Playlist", values: [:], orders: order.isEmpty ? [:] : ["songs": order])
    }

    /// The state after `operations`, each applied once.
    private func state(_ operations: [SyncOperation]...) throws -> MergeState {
        var state = MergeState()
        for operation in operations.joined() { try state.apply(operation) }
        return state
    }

    @Test func aStoresOrderBecomesPlacementsAndMovesPlaceOnlyWhatMoved() throws {
        let first = try state(MergeState().operations(bringing: playlist, to: shown(songs), at: stamp(1)))
        #expect(first.resolved(playlist)?.orders["songs"] == songs)

        // Moving the last song to the front places it alone.
        let moved = [songs[4]] + songs[0..<4]
        let move = try first.operations(bringing: playlist, to: shown(moved), at: stamp(2))
        guard case .place(key: "songs", member: songs[4], _)? = move.first?.change, move.count == 1 else {
            Issue.record("\(move)")
            return
        }
        var state = first
        for operation in move { try state.apply(operation) }
        #expect(state.resolved(playlist)?.orders["songs"] == moved)
        #expect(try state.operations(bringing: playlist, to: shown(moved), at: stamp(3)) == [])

        // Reversing the four after the first keeps two where they are: three move.
        let reversed = [moved[0]] + moved[1...].reversed()
        #expect(try state.operations(bringing: playlist, to: shown(reversed), at: stamp(4)).count == 3)
    }

    @Test func movesAndInsertionsMadeApartBothHoldInEveryOrder() throws {
        let base = try MergeState().operations(bringing: playlist, to: shown(Array(songs[0..<4])), at: stamp(1))
        let start = try state(base)
        // One replica moves the fourth song to the front; the other, apart, moves the first
        // to the end and inserts a fifth after the second.
        let front = try start.operations(
            bringing: playlist, to: shown([songs[3], songs[0], songs[1], songs[2]]), at: stamp(5))
        let back = try start.operations(
            bringing: playlist, to: shown([songs[1], songs[4], songs[2], songs[3], songs[0]]), at: stamp(6, other))
        let states = try MergeStateTests.statesInEveryOrder(base + front + back)
        #expect(states.count == 1)
        var state = start
        for operation in front + back { try state.apply(operation) }
        #expect(state.resolved(playlist)?.orders["songs"] == [songs[3], songs[1], songs[4], songs[2], songs[0]])
    }

    @Test func oneMemberMovedTwiceApartGoesWhereTheLaterMovePutIt() throws {
        let base = try MergeState().operations(bringing: playlist, to: shown(songs), at: stamp(1))
        let start = try state(base)
        let toEnd = try start.operations(
            bringing: playlist, to: shown(Array(songs[1...]) + [songs[0]]), at: stamp(3, other))
        let toMiddle = try start.operations(
            bringing: playlist, to: shown([songs[1], songs[2], songs[0], songs[3], songs[4]]), at: stamp(2))
        let states = try MergeStateTests.statesInEveryOrder(base + toEnd + toMiddle)
        #expect(states.count == 1)
        #expect(states.first?[playlist]?.orders["songs"] == Array(songs[1...]) + [songs[0]])
    }

    @Test func twoInsertionsAtOnePlaceSettleByGlobalIDAndAnInsertionBetweenSeparatesThem() throws {
        let start = try state(
            MergeState().operations(bringing: playlist, to: shown([songs[0], songs[1]]), at: stamp(1)))
        let mine = try start.operations(bringing: playlist, to: shown([songs[0], songs[2], songs[1]]), at: stamp(2))
        let theirs = try start.operations(
            bringing: playlist, to: shown([songs[0], songs[3], songs[1]]), at: stamp(2, other))
        var state = start
        for operation in mine + theirs { try state.apply(operation) }
        let middle = [songs[2], songs[3]].sorted()
        #expect(state.resolved(playlist)?.orders["songs"] == [songs[0]] + middle + [songs[1]])
        // A store showing them so places nothing; one putting a song between them places it
        // and the second of them.
        let tied = [songs[0]] + middle + [songs[1]]
        #expect(try state.operations(bringing: playlist, to: shown(tied), at: stamp(3)) == [])
        let between = [songs[0], middle[0], songs[4], middle[1], songs[1]]
        let settle = try state.operations(bringing: playlist, to: shown(between), at: stamp(4))
        let placed = settle.compactMap { operation -> GlobalID? in
            if case .place(_, let member, _) = operation.change { member } else { nil }
        }
        #expect(Set(placed) == [songs[4], middle[1]])
        for operation in settle { try state.apply(operation) }
        #expect(state.resolved(playlist)?.orders["songs"] == between)
        #expect(try state.operations(bringing: playlist, to: shown(between), at: stamp(5)) == [])
    }

    @Test func aPositionThatWouldGrowTooLongSpacesTheMembersAnew() throws {
        // Two songs whose positions, after many insertions between them, differ only in their
        // last of 128 digits: a song between them would need 129.
        let zeros = String(repeating: "0", count: OrderPosition.respacingLength - 2)
        var state = MergeState()
        for (song, last) in [(songs[0], "1"), (songs[1], "2")] {
            let position = try #require(OrderPosition("1" + zeros + last))
            try state.apply(
                SyncOperation(
                    object: playlist, entity: "Playlist", stamp: stamp(1),
                    change: .place(key: "songs", member: song, position: position)))
        }
        // A song placed between them that the store does not show (it waits) keeps its place.
        let waiting = try #require(OrderPosition("1" + zeros + "1V"))
        try state.apply(
            SyncOperation(
                object: playlist, entity: "Playlist", stamp: stamp(1),
                change: .place(key: "songs", member: songs[3], position: waiting)))
        let order = [songs[0], songs[2], songs[1]]
        let operations = try state.operations(bringing: playlist, to: shown(order), at: stamp(2))
        #expect(operations.count == 4)
        for operation in operations {
            guard case .place(_, _, let position) = operation.change else { continue }
            #expect(position.text.count == 1)
            try state.apply(operation)
        }
        #expect(state.resolved(playlist)?.orders["songs"] == [songs[0], songs[2], songs[3], songs[1]])
    }

    @Test func placementsOfDeletedMembersAndOfADeletedOwnerAreGone() throws {
        var state = try state(MergeState().operations(bringing: playlist, to: shown(songs), at: stamp(1)))
        try state.apply(SyncOperation(object: songs[2], entity: "Song", stamp: stamp(2), change: .insert))
        try state.apply(SyncOperation(object: songs[2], entity: "Song", stamp: stamp(3), change: .delete))
        #expect(state.resolved(playlist)?.orders["songs"] == songs.filter { $0 != songs[2] })
        try state.apply(SyncOperation(object: playlist, entity: "Playlist", stamp: stamp(4), change: .delete))
        #expect(state.objects[playlist]?.placements == [:])
    }

    @Test func aKeptObjectWithoutPlacementsReadsAndWritesAsBefore() throws {
        let kept = Data(
            #"{"entity":"Song","registers":{},"relationships":{},"lastWrite":"5.0@\#(replica)","insertion":"5.0@\#(replica)"}"#
                .utf8)
        let object = try JSONDecoder().decode(MergedObject.self, from: kept)
        #expect(object.placements == [:])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(object), as: UTF8.self).contains("placements") == false)
    }

    // MARK: Replicas' stores

    /// Playlists whose songs are ordered (their inverse, a song's playlist, syncs which songs
    /// are members), and songs whose genres are ordered, many to many (a genre's songs sync
    /// which genres are members); genres unique by name.
    static let model: ManagedObjectModel = {
        let model = try! SyncModel.replicaModel(
            for: ManagedObjectModel {
                EntityDescription("Playlist") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toMany(
                        "songs", destination: "Song", inverse: "playlist", ordered: true)
                }
                EntityDescription("Song") {
                    AttributeDescription("title", .string)
                    RelationshipDescription.toOne("playlist", destination: "Playlist", inverse: "songs")
                    RelationshipDescription.toMany("genres", destination: "Genre", inverse: "songs", ordered: true)
                }
                EntityDescription("Genre") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toMany("songs", destination: "Song", inverse: "genres")
                    UniquenessConstraint("name")
                }
            })
        try? model.freeze()
        return model
    }()

    private static func text(_ object: ManagedObject, _ key: String) throws -> String {
        guard case .string(let text) = try object.value(forKey: key) else { return "" }
        return text
    }

    /// The titles of the playlist's songs and the names of the first song's genres, in order.
    private static func orders(of replica: SyncEngineTests.Replica) throws -> [[String]] {
        let context = ManagedObjectContext(coordinator: replica.context.coordinator)
        return try context.performAndWait {
            let playlist = try SyncEngineTests.first("Playlist", in: context)
            let songs = try playlist.objects(forKey: "songs")
            let first = try #require(songs.first)
            return [
                try songs.map { try Self.text($0, "title") },
                try first.objects(forKey: "genres").map { try Self.text($0, "name") },
            ]
        }
    }

    /// A hub in `directory`, and a SQLite and an XML replica syncing through it.
    private static func replicas(in directory: TemporaryDirectory) throws -> (
        StoreHub, SyncEngineTests.Replica, SyncEngineTests.Replica
    ) {
        let hub = try SyncEngineTests.hub(in: directory)
        let sqlite = try SyncEngineTests.Replica(type: .sqlite, at: directory.file("a.sqlite"), hub: hub, model: model)
        let xml = try SyncEngineTests.Replica(type: .xml, at: directory.file("b.xml"), hub: hub, model: model)
        return (hub, sqlite, xml)
    }

    /// The `entity` object whose `key` is `text`.
    private static func object(_ entity: String, _ key: String, _ text: String, in context: ManagedObjectContext)
        throws -> ManagedObject
    {
        try #require(
            try context.fetch(FetchRequest<ManagedObject>(entityName: entity)).first {
                try $0.value(forKey: key) == .string(text)
            })
    }

    @Test func twoStoresReorderedApartShowOneOrder() async throws {
        let directory = try TemporaryDirectory()
        let (hub, sqlite, xml) = try Self.replicas(in: directory)

        try sqlite.edit { context in
            let playlist = try SyncEngineTests.insert("Playlist", ["name": "Mix"], in: context)
            let songs = try ["one", "two", "three", "four"].map {
                try SyncEngineTests.insert("Song", ["title": .string($0)], in: context)
            }
            try playlist.setObjects(songs, forKey: "songs")
            let genres = try ["folk", "jazz", "rock"].map {
                try SyncEngineTests.insert("Genre", ["name": .string($0)], in: context)
            }
            try songs[0].setObjects(genres, forKey: "genres")
        }
        try await sqlite.engine.syncNow()
        try await xml.engine.syncNow()
        #expect(try Self.orders(of: xml) == [["one", "two", "three", "four"], ["folk", "jazz", "rock"]])

        // Apart: the SQLite replica moves "four" to the front and "rock" first; the XML replica
        // moves "one" to the end, adds "five" after "two" and "blues" after "folk".
        sqlite.wall.set(2_000)
        xml.wall.set(2_100)
        try sqlite.edit { context in
            let playlist = try SyncEngineTests.first("Playlist", in: context)
            let songs = try playlist.objects(forKey: "songs")
            try playlist.setObjects([songs[3]] + songs[0..<3], forKey: "songs")
            let genres = try songs[0].objects(forKey: "genres")
            try songs[0].setObjects([genres[2], genres[0], genres[1]], forKey: "genres")
        }
        try xml.edit { context in
            let playlist = try SyncEngineTests.first("Playlist", in: context)
            let songs = try playlist.objects(forKey: "songs")
            let five = try SyncEngineTests.insert("Song", ["title": "five"], in: context)
            try playlist.setObjects([songs[1], five, songs[2], songs[3], songs[0]], forKey: "songs")
            let one = try Self.object("Song", "title", "one", in: context)
            let genres = try one.objects(forKey: "genres")
            let blues = try SyncEngineTests.insert("Genre", ["name": "blues"], in: context)
            try one.setObjects([genres[0], blues, genres[1], genres[2]], forKey: "genres")
        }
        try await sqlite.engine.syncNow()
        try await xml.engine.syncNow()
        try await sqlite.engine.syncNow()

        let expected = [["four", "two", "five", "three", "one"], ["rock", "folk", "blues", "jazz"]]
        #expect(try Self.orders(of: sqlite).first == expected[0])
        #expect(try Self.orders(of: xml).first == expected[0])
        for replica in [sqlite, xml] {
            let context = ManagedObjectContext(coordinator: replica.context.coordinator)
            let genres = try context.performAndWait {
                try Self.object("Song", "title", "one", in: context).objects(forKey: "genres").map {
                    try Self.text($0, "name")
                }
            }
            #expect(genres == expected[1])
        }
        #expect(await sqlite.engine.resolvedObjects() == xml.engine.resolvedObjects())

        // Opened again, nothing is pushed: the stores show what the merged state orders.
        let head = await hub.lastSequence
        try sqlite.reopen()
        try xml.reopen()
        try await sqlite.engine.syncNow()
        try await xml.engine.syncNow()
        #expect(try Self.orders(of: sqlite).first == expected[0])
        #expect(await hub.lastSequence == head)
    }

    @Test func aMemberThatComesToShowAsAnotherTakesItsLaterPlaceOnEveryStore() async throws {
        let directory = try TemporaryDirectory()
        let (_, sqlite, xml) = try Self.replicas(in: directory)
        func genres(of replica: SyncEngineTests.Replica) throws -> [String] {
            let context = ManagedObjectContext(coordinator: replica.context.coordinator)
            return try context.performAndWait {
                try SyncEngineTests.first("Song", in: context).objects(forKey: "genres").map {
                    try Self.text($0, "name")
                }
            }
        }

        // The SQLite replica's song has "rock" and "jazz"; the XML replica, apart, makes "soul".
        try sqlite.edit { context in
            let song = try SyncEngineTests.insert("Song", ["title": "So What"], in: context)
            let genres = try ["rock", "jazz"].map {
                try SyncEngineTests.insert("Genre", ["name": .string($0)], in: context)
            }
            try song.setObjects(genres, forKey: "genres")
        }
        xml.wall.set(2_000)
        try xml.edit { context in _ = try SyncEngineTests.insert("Genre", ["name": "soul"], in: context) }
        try await xml.engine.syncNow()
        // The SQLite replica's save is stamped when it syncs, before "soul" was made.
        try await sqlite.engine.syncNow()
        // It puts "soul" first, then takes it out: its place stays.
        sqlite.wall.set(3_000)
        try sqlite.edit { context in
            let song = try SyncEngineTests.first("Song", in: context)
            try song.setObjects(
                [Self.object("Genre", "name", "soul", in: context)] + song.objects(forKey: "genres"), forKey: "genres")
        }
        try await sqlite.engine.syncNow()
        sqlite.wall.set(3_500)
        try sqlite.edit { context in
            let song = try SyncEngineTests.first("Song", in: context)
            try song.setObjects(
                song.objects(forKey: "genres").filter { try Self.text($0, "name") != "soul" }, forKey: "genres")
        }
        try await sqlite.engine.syncNow()
        #expect(try genres(of: sqlite) == ["rock", "jazz"])

        // The XML replica, not having seen the other "jazz", renames "soul" to "jazz". The
        // "jazz" inserted first shows for both, at the later place of the two: first. The
        // SQLite replica pulls only the rename, yet shows the song's new order.
        xml.wall.set(4_000)
        try xml.edit { context in try Self.object("Genre", "name", "soul", in: context).setValue("jazz", forKey: "name")
        }
        try await xml.engine.syncNow()
        try await sqlite.engine.syncNow()
        #expect(try genres(of: xml) == ["jazz", "rock"])
        #expect(try genres(of: sqlite) == ["jazz", "rock"])
    }
}
